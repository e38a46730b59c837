using System.Globalization;

namespace Spanwire.Cli;

/// <summary>
/// How far a long piece of work has got, on one line of standard error rewritten in place: with <c>--progress</c>
/// from the start, and on a terminal without it once the work has taken a second, so short runs and pipelines see
/// nothing. The line is cleared when the work ends.
/// </summary>
internal sealed class Progress : IDisposable
{
    public const string Flag = "--progress";
    /// <summary>The flag's line in a verb's help, its text starting at <paramref name="column"/> as the verb's other options do.</summary>
    public static string HelpLine(int column) =>
        "  --progress".PadRight(column) + "show progress on standard error (on a terminal it shows anyway once a run takes a second)";
    private const long FirstAfterMs = 1000;
    private const long EveryMs = 250;

    private readonly string _label;
    private readonly long _started = Environment.TickCount64;
    private readonly bool _enabled;
    private readonly long _firstAfterMs;
    private long _total;
    private long _last;
    private int _width;

    private Progress(string label, long total, bool enabled, long firstAfterMs)
    {
        _label = label;
        _total = total;
        _enabled = enabled;
        _firstAfterMs = firstAfterMs;
        _last = -EveryMs;
    }

    /// <summary>Starts reporting <paramref name="label"/>'s progress out of <paramref name="total"/> bytes (0: unknown).</summary>
    public static Progress Start(string label, long total, ArgumentReader arguments) => arguments.Flag(Flag)
        ? new(label, total, enabled: true, firstAfterMs: 0)
        : new(label, total, enabled: !Console.IsErrorRedirected, FirstAfterMs);

    /// <summary>The total, once it is known.</summary>
    public long Total
    {
        set => _total = value;
    }

    /// <summary>Reports <paramref name="done"/> bytes; cheap when nothing is shown.</summary>
    public void Report(long done)
    {
        if (!_enabled)
        {
            return;
        }

        long now = Environment.TickCount64;
        if (now - _started < _firstAfterMs || now - _last < EveryMs)
        {
            return;
        }

        _last = now;
        string line = _total > 0
            ? string.Create(CultureInfo.InvariantCulture, $"{_label}: {100.0 * Math.Min(done, _total) / _total:0}% ({Megabytes(done)} of {Megabytes(_total)})")
            : $"{_label}: {Megabytes(done)}";
        Console.Error.Write("\r" + line.PadRight(_width));
        _width = line.Length;
    }

    /// <summary>Clears the line, if one was shown.</summary>
    public void Dispose()
    {
        if (_width > 0)
        {
            Console.Error.Write("\r" + new string(' ', _width) + "\r");
            _width = 0;
        }
    }

    private static string Megabytes(long bytes) => string.Create(CultureInfo.InvariantCulture, $"{bytes / 1e6:0.0} MB");
}
