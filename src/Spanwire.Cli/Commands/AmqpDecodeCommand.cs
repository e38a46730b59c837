using System.Buffers;
using System.Globalization;
using System.Text;
using Spanwire.Amqp.Protocol;
using Spanwire.Buffers;

namespace Spanwire.Cli.Commands;

/// <summary><c>spanwire amqp decode [--from client|server] [FILE|-]</c>: prints every frame of one direction of an AMQP 0-9-1 connection.</summary>
internal sealed class AmqpDecodeCommand : ICommand
{
    private const int PreviewBytes = 32;

    public string Name => "amqp decode";

    public string Summary => "print every frame of a raw AMQP 0-9-1 byte stream";

    public string[] ValueOptions => ["--from"];

    public string Help => """
        usage: spanwire amqp decode [--from client|server] [FILE|-]

        Reads the raw bytes of one direction of an AMQP 0-9-1 connection (as captured from TCP) from FILE, or standard
        input for '-' or no FILE, and prints one line per frame: byte offset, channel, frame type, then for methods
        class.method with named arguments, for content headers the body size and properties (headers table
        included), for bodies the size and a short preview. A protocol header may open the stream.
        frame_max follows the stream: 131072 until connection.tune (server) or tune-ok (client) sets it.
        A malformed stream prints what was decoded, then one error line with the reply code and byte offset
        (exit code 2).

        options:
          --from client|server   which peer sent the bytes (default client); labels the lines and picks
                                 which of tune / tune-ok sets frame_max
          --help, -h             show this help
          --version              show the version
        """;

    public int Run(ArgumentReader arguments)
    {
        string from = arguments.Option("--from") ?? "client";
        arguments.Finish(maxPositionals: 1);
        if (from is not ("client" or "server"))
        {
            throw new CliException($"--from takes 'client' or 'server'; got '{from}'");
        }

        string inputName = arguments.FirstPositional ?? "-";
        using var input = new PooledStream();
        using (Stream source = Input.Open(arguments.FirstPositional))
        {
            source.CopyTo(input);
        }

        using var stdout = new StreamWriter(Console.OpenStandardOutput(), new UTF8Encoding(false), 65536) { NewLine = "\n" };
        ReadOnlySequence<byte> buffer = input.GetReadOnlySequence();
        var decoder = new AmqpFrameReader();
        AmqpMethod tuneMethod = from == "client" ? AmqpMethods.ConnectionTuneOk : AmqpMethods.ConnectionTune;
        string label = from == "client" ? "C" : "S";
        long frames = 0;
        try
        {
            while (decoder.TryReadFrame(ref buffer, out AmqpFrame frame))
            {
                frames++;
                stdout.WriteLine(Describe(decoder, frame, label, tuneMethod));
            }
        }
        catch (AmqpProtocolException ex)
        {
            stdout.Flush();
            throw new CliException($"{inputName}: {ex.Message} ({frames} frames decoded before it)");
        }

        stdout.Flush();
        if (!buffer.IsEmpty)
        {
            throw new CliException($"{inputName}: the stream ends inside a frame at byte {decoder.Position} ({buffer.Length} bytes of an incomplete frame; {frames} frames decoded)");
        }

        return ExitCodes.Success;
    }

    private static string Describe(AmqpFrameReader decoder, in AmqpFrame frame, string label, AmqpMethod tuneMethod)
    {
        var line = new StringBuilder();
        line.Append(CultureInfo.InvariantCulture, $"{frame.Offset,10} {label} ");
        switch (frame.Type)
        {
            case AmqpFrameType.ProtocolHeader:
                Span<byte> version = stackalloc byte[4];
                frame.Payload.CopyTo(version);
                line.Append(CultureInfo.InvariantCulture, $"      protocol-header AMQP {version[0]}-{version[1]}-{version[2]}-{version[3]}");
                break;
            case AmqpFrameType.Heartbeat:
                line.Append(CultureInfo.InvariantCulture, $"ch {frame.Channel,-5} heartbeat");
                break;
            case AmqpFrameType.Method:
                AmqpMethodReader method = AmqpMethodReader.Parse(decoder.GetPayloadSpan(frame), frame.PayloadOffset);
                if (method.Method == tuneMethod)
                {
                    uint frameMax = method.GetLong(1);
                    decoder.FrameMax = frameMax;
                }

                line.Append(CultureInfo.InvariantCulture, $"ch {frame.Channel,-5} method  {method.ToString()}");
                break;
            case AmqpFrameType.ContentHeader:
                AmqpContentHeader header = AmqpContentHeader.Parse(decoder.GetPayloadSpan(frame), frame.PayloadOffset);
                line.Append(CultureInfo.InvariantCulture, $"ch {frame.Channel,-5} header  {header.ToString()}");
                break;
            default:
                line.Append(CultureInfo.InvariantCulture, $"ch {frame.Channel,-5} body    {frame.Payload.Length} bytes ");
                AppendPreview(line, frame.Payload);
                break;
        }

        return line.ToString();
    }

    /// <summary>The first bytes of a body: printable ASCII as is, anything else as '.', quoted.</summary>
    private static void AppendPreview(StringBuilder line, ReadOnlySequence<byte> payload)
    {
        Span<byte> preview = stackalloc byte[PreviewBytes];
        int length = (int)Math.Min(payload.Length, PreviewBytes);
        payload.Slice(0, length).CopyTo(preview);
        line.Append('"');
        foreach (byte b in preview[..length])
        {
            line.Append(b is >= 0x20 and < 0x7F and not (byte)'"' and not (byte)'\\' ? (char)b : '.');
        }

        line.Append('"');
        if (payload.Length > PreviewBytes)
        {
            line.Append("...");
        }
    }
}
