using System.Buffers;
using System.Reflection;
using System.Text.Encodings.Web;
using System.Text.Json;

namespace Spanwire.Json.Tests;

/// <summary>
/// Reset(IBufferWriter, JsonWriterOptions) and Reset(Stream, JsonWriterOptions), the overloads System.Text.Json 11
/// adds to Utf8JsonWriter, run against that writer: the package's own (11.0.0, loaded beside the runtime's in a load
/// context of its own) is the control in every case. Seeded scripts write part of a document under one set of
/// options, reset onto another output with another set, and write on; the bytes of both outputs, the counters, the
/// depth, the options read back and every exception type must agree.
/// </summary>
public sealed class ResetWithOptionsTests
{
    private static readonly int s_scripts = LongRuns.Scale(400);

    private static JsonPackageContext Package => JsonPackageContext.Instance
        ?? throw new InvalidOperationException("System.Text.Json 11.0.0's files are not in stj11/ beside the tests (tests/Shared/Json/JsonPackage.targets copies them)");

    private static Type PackageWriter => Package.Json.GetType("System.Text.Json.Utf8JsonWriter", throwOnError: true)!;

    private static Type PackageOptions => Package.Json.GetType("System.Text.Json.JsonWriterOptions", throwOnError: true)!;

    /// <summary>One set of writer options, made for each side.</summary>
    private sealed record OptionSet(bool Indented, char IndentCharacter, int IndentSize, string NewLine, bool SkipValidation, int MaxDepth, bool Relaxed)
    {
        public static OptionSet Random(Random random) => new(
            random.Next(2) == 0, random.Next(3) == 0 ? '\t' : ' ', random.Next(0, 4), random.Next(2) == 0 ? "\n" : "\r\n",
            random.Next(3) == 0, random.Next(4) switch { 0 => 0, 1 => 2, 2 => 3, _ => 64 }, random.Next(2) == 0);

        public JsonWriterOptions InBox() => new()
        {
            Indented = Indented,
            IndentCharacter = IndentCharacter,
            IndentSize = IndentSize,
            NewLine = NewLine,
            SkipValidation = SkipValidation,
            MaxDepth = MaxDepth,
            Encoder = Relaxed ? JavaScriptEncoder.UnsafeRelaxedJsonEscaping : null,
        };

        public object ForPackage()
        {
            object options = Activator.CreateInstance(PackageOptions)!; // a box: the setters below change it in place
            Set(options, nameof(Indented), Indented);
            Set(options, nameof(IndentCharacter), IndentCharacter);
            Set(options, nameof(IndentSize), IndentSize);
            Set(options, nameof(NewLine), NewLine);
            Set(options, nameof(SkipValidation), SkipValidation);
            Set(options, nameof(MaxDepth), MaxDepth);
            if (Relaxed)
            {
                Type encoder = Package.LoadFromAssemblyName(new AssemblyName("System.Text.Encodings.Web")).GetType("System.Text.Encodings.Web.JavaScriptEncoder", throwOnError: true)!;
                Set(options, "Encoder", encoder.GetProperty(nameof(JavaScriptEncoder.UnsafeRelaxedJsonEscaping))!.GetValue(null));
            }

            return options;
        }

        private static void Set(object options, string name, object? value) => PackageOptions.GetProperty(name)!.SetValue(options, value);
    }

    /// <summary>An output of either kind, the same for both writers.</summary>
    private sealed class Output(bool stream)
    {
        public ArrayBufferWriter<byte>? Buffer { get; } = stream ? null : new ArrayBufferWriter<byte>();

        public MemoryStream? Stream { get; } = stream ? new MemoryStream() : null;

        public object Target => (object?)Buffer ?? Stream!;

        public byte[] Bytes => Buffer?.WrittenSpan.ToArray() ?? Stream!.ToArray();
    }

    /// <summary>Calls on each writer through its own type (the package's is only known at run time).</summary>
    private static object? Call(object writer, string name, Type[] parameters, params object?[] arguments)
    {
        try
        {
            return writer.GetType().GetMethod(name, parameters)!.Invoke(writer, arguments);
        }
        catch (TargetInvocationException ex) when (ex.InnerException is not null)
        {
            throw ex.InnerException;
        }
    }

    private static object NewWriter(Type type, Output output, object options) =>
        Activator.CreateInstance(type, output.Target, options)!;

    private static void Reset(object writer, Output output, object options, Type optionsType) =>
        Call(writer, "Reset", [output.Stream is null ? typeof(IBufferWriter<byte>) : typeof(Stream), optionsType], output.Target, options);

    /// <summary>Random writer calls: containers to a random depth (past a small MaxDepth now and then), escapable names and values.</summary>
    private static List<(string Description, Action<dynamic> Call)> Calls(Random random, int count)
    {
        string[] texts = ["plain", "é<>&'\"", "\u2028 line", "tab\tend", "", "emoji \U0001F600"];
        var calls = new List<(string, Action<dynamic>)>();
        for (int i = 0; i < count; i++)
        {
            string name = texts[random.Next(texts.Length)];
            string value = texts[random.Next(texts.Length)];
            int number = random.Next(-1000, 1000);
            calls.Add(random.Next(9) switch
            {
                0 => ("StartObject", w => w.WriteStartObject()),
                1 => ($"StartObject({name})", w => w.WriteStartObject(name)),
                2 => ("StartArray", w => w.WriteStartArray()),
                3 => ($"StartArray({name})", w => w.WriteStartArray(name)),
                4 => ("EndObject", w => w.WriteEndObject()),
                5 => ("EndArray", w => w.WriteEndArray()),
                6 => ($"String({name}, {value})", w => w.WriteString(name, value)),
                7 => ($"StringValue({value})", w => w.WriteStringValue(value)),
                _ => ($"NumberValue({number})", w => w.WriteNumberValue(number)),
            });
        }

        return calls;
    }

    private static void Same(object incumbent, SpanwireJsonWriter spanwire, string description, Action<dynamic> call, List<string> log)
    {
        log.Add(description);
        string? expected = Outcome(() => call(incumbent));
        string? actual = Outcome(() => call(spanwire));
        Expect.Equal(expected, actual, $"exception of {description} after [{string.Join(", ", log)}]");
        dynamic control = incumbent;
        Expect.Equal((long)control.BytesCommitted, spanwire.BytesCommitted, $"BytesCommitted after [{string.Join(", ", log)}]");
        Expect.Equal((int)control.BytesPending, spanwire.BytesPending, $"BytesPending after [{string.Join(", ", log)}]");
        Expect.Equal((int)control.CurrentDepth, spanwire.CurrentDepth, $"CurrentDepth after [{string.Join(", ", log)}]");
    }

    private static string? Outcome(Action action)
    {
        try
        {
            action();
            return null;
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            return ex.GetType().Name;
        }
    }

    [Fact]
    public void The_package_writer_is_System_Text_Json_11()
    {
        Expect.Equal(new Version(11, 0, 0, 0), Package.Json.GetName().Version, "the control's assembly version");
        Assert.NotNull(PackageWriter.GetMethod("Reset", [typeof(IBufferWriter<byte>), PackageOptions]));
        Assert.NotNull(PackageWriter.GetMethod("Reset", [typeof(Stream), PackageOptions]));
    }

    [Fact]
    public void Seeded_scripts_reset_onto_other_outputs_with_other_options_as_System_Text_Json_11_does()
    {
        for (int seed = 0; seed < s_scripts; seed++)
        {
            var random = new Random(seed);
            OptionSet first = OptionSet.Random(random), second = OptionSet.Random(random);
            bool firstStream = random.Next(2) == 0, secondStream = random.Next(2) == 0;
            Output expectedFirst = new(firstStream), actualFirst = new(firstStream);
            Output expectedSecond = new(secondStream), actualSecond = new(secondStream);
            object incumbent = NewWriter(PackageWriter, expectedFirst, first.ForPackage());
            SpanwireJsonWriter spanwire = actualFirst.Stream is { } stream
                ? new SpanwireJsonWriter(stream, first.InBox())
                : new SpanwireJsonWriter(actualFirst.Buffer!, first.InBox());

            var log = new List<string> { $"seed {seed}: {first} on {(firstStream ? "a stream" : "a buffer writer")}" };
            foreach ((string description, Action<dynamic> call) in Calls(random, random.Next(0, 8)))
            {
                Same(incumbent, spanwire, description, call, log);
            }

            if (random.Next(2) == 0)
            {
                Same(incumbent, spanwire, "Flush", w => w.Flush(), log);
            }

            log.Add($"Reset onto {(secondStream ? "a stream" : "a buffer writer")} with {second}");
            Reset(incumbent, expectedSecond, second.ForPackage(), PackageOptions);
            Reset(spanwire, actualSecond, second.InBox(), typeof(JsonWriterOptions));
            dynamic control = incumbent;
            JsonWriterOptions options = spanwire.Options;
            Expect.Equal(((bool)control.Options.Indented, (char)control.Options.IndentCharacter, (int)control.Options.IndentSize, (string)control.Options.NewLine, (bool)control.Options.SkipValidation, (int)control.Options.MaxDepth),
                (options.Indented, options.IndentCharacter, options.IndentSize, options.NewLine, options.SkipValidation, options.MaxDepth), $"Options after [{string.Join(", ", log)}]");
            Same(incumbent, spanwire, "(state right after Reset)", _ => { }, log);

            foreach ((string description, Action<dynamic> call) in Calls(random, random.Next(1, 12)))
            {
                Same(incumbent, spanwire, description, call, log);
            }

            Same(incumbent, spanwire, "Flush", w => w.Flush(), log);
            Expect.Equal(Convert.ToHexString(expectedFirst.Bytes), Convert.ToHexString(actualFirst.Bytes), $"the first output after [{string.Join(", ", log)}]");
            Expect.Equal(Convert.ToHexString(expectedSecond.Bytes), Convert.ToHexString(actualSecond.Bytes), $"the second output after [{string.Join(", ", log)}]");
        }
    }

    [Fact]
    public void Bad_arguments_and_a_disposed_writer_throw_what_System_Text_Json_11_throws()
    {
        object packageOptions = new OptionSet(true, ' ', 2, "\n", false, 0, false).ForPackage();
        JsonWriterOptions inBoxOptions = new() { Indented = true };
        var readOnly = new MemoryStream([], writable: false);
        (string Case, Type Parameter, object? Argument)[] cases =
        [
            ("a null buffer writer", typeof(IBufferWriter<byte>), null),
            ("a null stream", typeof(Stream), null),
            ("a stream that cannot be written", typeof(Stream), readOnly),
        ];
        foreach ((string what, Type parameter, object? argument) in cases)
        {
            object incumbent = NewWriter(PackageWriter, new Output(stream: false), packageOptions);
            var spanwire = new SpanwireJsonWriter(new ArrayBufferWriter<byte>(), inBoxOptions);
            Expect.Equal(
                Outcome(() => Call(incumbent, "Reset", [parameter, PackageOptions], argument, packageOptions)),
                Outcome(() => Call(spanwire, "Reset", [parameter, typeof(JsonWriterOptions)], argument, inBoxOptions)),
                $"Reset with {what}");
        }

        object disposed = NewWriter(PackageWriter, new Output(stream: false), packageOptions);
        ((IDisposable)disposed).Dispose();
        var disposedSpanwire = new SpanwireJsonWriter(new ArrayBufferWriter<byte>(), inBoxOptions);
        disposedSpanwire.Dispose();
        foreach (bool stream in new[] { false, true })
        {
            var output = new Output(stream);
            Expect.Equal(
                Outcome(() => Reset(disposed, output, packageOptions, PackageOptions)),
                Outcome(() => Reset(disposedSpanwire, output, inBoxOptions, typeof(JsonWriterOptions))),
                $"Reset onto a {(stream ? "stream" : "buffer writer")} after Dispose");
        }
    }
}
