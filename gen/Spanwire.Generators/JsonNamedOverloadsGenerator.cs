using System;
using System.Collections.Immutable;
using System.IO;
using System.Linq;
using System.Text;
using System.Xml.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Text;

namespace Spanwire.Generators;

/// <summary>
/// Writes Utf8JsonWriter's property-name-and-value overloads for the class marked
/// <c>[GenerateNamedOverloads]</c>: every name kind (pre-encoded, string, UTF-16 span, UTF-8 span) crossed with every
/// value kind, each a one-line call of the value's core method, with its docs. The matrix is the two tables below; the
/// documentation text shared with hand-written members comes from the library's docs file (an AdditionalFiles item
/// whose name ends in ".docs.xml"), so each sentence is written once. For the value kinds of a bounded size (numbers,
/// dates, Guids, booleans, Base64, null) it also writes the unnamed value method and the named core, from the
/// table's room, bytes and token columns: the two differ only in how the room is asked for.
/// </summary>
[Generator(LanguageNames.CSharp)]
public sealed class JsonNamedOverloadsGenerator : IIncrementalGenerator
{
    private const string Marker = "Spanwire.Json.GenerateNamedOverloadsAttribute";

    // The name parameter's type, name, how the summary calls it, its <param> text.
    private static readonly NameKind[] s_names =
    [
        new("JsonEncodedText", "propertyName", "a pre-encoded property name", "The pre-encoded property name, written as it is."),
        new("string", "propertyName", "a property name", "The property name; escaped as the options' encoder requires."),
        new("ReadOnlySpan<char>", "propertyName", "a property name", "The property name; escaped as the options' encoder requires."),
        new("ReadOnlySpan<byte>", "utf8PropertyName", "a UTF-8 property name", "The property name as UTF-8; escaped as the options' encoder requires."),
    ];

    // The bounded value kinds: the argument check made before anything is written, the room Utf8JsonWriter asks for,
    // the call that writes the bytes at p and returns where they end, and the token written.
    private static readonly Bounded s_int64 = new(null, "MaxInt64Length", "NumberAt(_w.Buffer, p, value)", "JsonTokenType.Number");
    private static readonly Bounded s_floating = s_int64 with { Check = "CheckFinite(value);", Room = "MaxFloatingLength" };

    // Utf8JsonWriter's method, the value parameter (none for null and the starts), the summary's end, its <param>
    // text, the core call's trailing arguments, and for a bounded kind how it is written.
    private static readonly ValueKind[] s_values =
    [
        new("WriteString", "JsonEncodedText", "value", "a pre-encoded string value", "The pre-encoded value, written as it is.", "value"),
        new("WriteString", "ReadOnlySpan<char>", "value", "a string value", "The value; escaped as the options' encoder requires.", "value"),
        new("WriteString", "ReadOnlySpan<byte>", "utf8Value", "a UTF-8 string value", "The value as UTF-8; escaped as the options' encoder requires.", "utf8Value"),
        new("WriteString", "DateTime", "value", "a DateTime as an ISO 8601 string", "The date and time, written as an ISO 8601 string as Utf8JsonWriter writes it.", "value")
            { Bounded = new(null, "MaxDateLength", "DateTimeAt(_w.Buffer, p, value)", "JsonTokenType.String") },
        new("WriteString", "DateTimeOffset", "value", "a DateTimeOffset as an ISO 8601 string", "The date and time, written as an ISO 8601 string as Utf8JsonWriter writes it.", "value")
            { Bounded = new(null, "MaxDateLength", "DateTimeOffsetAt(_w.Buffer, p, value)", "JsonTokenType.String") },
        new("WriteString", "Guid", "value", "a Guid string", "The Guid, written as a string in its \"D\" format.", "value")
            { Bounded = new(null, "MaxGuidLength", "GuidAt(_w.Buffer, p, value)", "JsonTokenType.String") },
        new("WriteNumber", "long", "value", "an integer", "The number, formatted as Utf8JsonWriter formats it.", "value") { Bounded = s_int64 },
        new("WriteNumber", "ulong", "value", "an integer", "The number, formatted as Utf8JsonWriter formats it.", "value") { Bounded = s_int64 },
        new("WriteNumber", "float", "value", "a number (NaN and infinities are refused)", "The number, formatted as Utf8JsonWriter formats it.", "value") { Bounded = s_floating },
        new("WriteNumber", "double", "value", "a number (NaN and infinities are refused)", "The number, formatted as Utf8JsonWriter formats it.", "value") { Bounded = s_floating },
        new("WriteNumber", "decimal", "value", "a decimal number", "The number, formatted as Utf8JsonWriter formats it.", "value")
            { Bounded = s_int64 with { Room = "MaxDecimalLength" } },
        new("WriteBoolean", "bool", "value", "true or false", "The value: <c>true</c> or <c>false</c>.", "value")
            { Bounded = new(null, "value ? 4 : 5", "BooleanAt(_w.Buffer, p, value)", "value ? JsonTokenType.True : JsonTokenType.False") },
        new("WriteBase64String", "ReadOnlySpan<byte>", "bytes", "bytes as a Base64 string", "The bytes to write as Base64.", "bytes")
            { Bounded = new("CheckBase64Size(bytes.Length);", "Base64.GetMaxEncodedToUtf8Length(bytes.Length) + 2", "Base64At(_w.Buffer, p, bytes)", "JsonTokenType.String") },
        new("WriteNumber", "int", "value", "an integer", "The number, formatted as Utf8JsonWriter formats it.", "(long)value"),
        new("WriteNumber", "uint", "value", "an integer", "The number, formatted as Utf8JsonWriter formats it.", "(ulong)value"),
        new("WriteString", "string?", "value", "a string value (null writes the null literal)", "The value; escaped as the options' encoder requires.", null),
        new("WriteNull", null, null, "null", null, "") { Bounded = new(null, "4", "NullAt(_w.Buffer, p)", "JsonTokenType.Null") },
        new("WriteStartObject", null, null, "the beginning of a JSON object", null, "isObject: true"),
        new("WriteStartArray", null, null, "the beginning of a JSON array", null, "isObject: false"),
    ];

    /// <inheritdoc/>
    public void Initialize(IncrementalGeneratorInitializationContext context)
    {
        IncrementalValuesProvider<(string Namespace, string Name, string? BaseName)> classes = GeneratedSource.MarkedClasses(context, Marker);
        IncrementalValueProvider<ImmutableArray<string>> docs = context.AdditionalTextsProvider
            .Where(static file => file.Path.EndsWith(".docs.xml", StringComparison.OrdinalIgnoreCase))
            .Select(static (file, token) => file.GetText(token)?.ToString() ?? "")
            .Collect();
        context.RegisterSourceOutput(classes.Combine(docs), static (output, pair) =>
        {
            string invalidCall = SharedDoc(pair.Right, "invalid-call");
            output.AddSource($"{pair.Left.Name}.Named.g.cs", SourceText.From(Emit(pair.Left.Namespace, pair.Left.Name, invalidCall), Encoding.UTF8));
        });
    }

    /// <summary>The doc comment lines of one shared fragment, e.g. docs/invalid-call/*.</summary>
    private static string SharedDoc(ImmutableArray<string> files, string fragment)
    {
        foreach (string file in files)
        {
            XElement? element = XDocument.Parse(file).Root?.Element(fragment);
            if (element is not null)
            {
                return string.Concat(element.Elements().Select(e => "    /// " + e.ToString(SaveOptions.DisableFormatting) + "\n"));
            }
        }

        throw new InvalidOperationException($"no <{fragment}> in a .docs.xml AdditionalFiles item");
    }

    private static string Emit(string ns, string type, string invalidCall)
    {
        StringBuilder text = GeneratedSource.Begin("the property-name-and-value overloads", ns, "System", "System.Buffers.Text", "System.Text.Json");
        text.Append($"public sealed partial class {type}\n{{");
        EmitBounded(text, invalidCall);
        foreach (NameKind name in s_names)
        {
            foreach (ValueKind value in s_values)
            {
                text.Append('\n');
                text.Append($"    /// <summary>Writes {name.Summary} and {value.Summary}.</summary>\n");
                text.Append($"    /// <param name=\"{name.Parameter}\">{name.Doc}</param>\n");
                if (value.Parameter is not null)
                {
                    text.Append($"    /// <param name=\"{value.Parameter}\">{value.Doc}</param>\n");
                }

                text.Append(invalidCall);
                string parameters = $"{name.Type} {name.Parameter}" + (value.Type is null ? "" : $", {value.Type} {value.Parameter}");
                string nameCall = $"Name({name.Parameter}, out int first)";
                if (value.Arguments is null)
                {
                    // A null string is the null literal, as Utf8JsonWriter writes it.
                    text.Append($"    public void {value.Method}({parameters})\n    {{\n");
                    text.Append($"        var name = {nameCall};\n");
                    text.Append($"        if ({value.Parameter} is null)\n        {{\n            WriteNullCore(name, first);\n        }}\n");
                    text.Append($"        else\n        {{\n            WriteStringCore(name, first, {value.Parameter}.AsSpan());\n        }}\n    }}\n");
                    continue;
                }

                string core = value.Method switch
                {
                    "WriteStartObject" or "WriteStartArray" => "WriteStartCore",
                    _ => value.Method + "Core",
                };
                string arguments = value.Arguments.Length == 0 ? "" : ", " + value.Arguments;
                text.Append($"    public void {value.Method}({parameters}) => {core}({nameCall}, first{arguments});\n");
            }
        }

        text.Append("}\n");
        return text.ToString();
    }

    /// <summary>Each bounded kind's unnamed value method (public) and its named core (called by the overloads).</summary>
    private static void EmitBounded(StringBuilder text, string invalidCall)
    {
        foreach (ValueKind value in s_values)
        {
            if (value.Bounded is not { } b)
            {
                continue;
            }

            string parameter = value.Type is null ? "" : $"{value.Type} {value.Parameter}";
            string check = b.Check is null ? "" : $"        {b.Check}\n";
            string body = $"        EndValue({b.Write}, {b.Token});\n    }}\n";
            text.Append('\n');
            text.Append($"    /// <summary>Writes {value.Summary}.</summary>\n");
            if (value.Parameter is not null)
            {
                text.Append($"    /// <param name=\"{value.Parameter}\">{value.Doc}</param>\n");
            }

            if (b.Check == s_floating.Check)
            {
                text.Append("    /// <exception cref=\"ArgumentException\">The value is NaN or infinite.</exception>\n");
            }

            text.Append(invalidCall);
            text.Append($"    public void {value.Method}Value({parameter})\n    {{\n{check}        int p = BeginValue({b.Room});\n{body}");
            text.Append('\n');
            text.Append($"    private void {value.Method}Core<TName>(ReadOnlySpan<TName> name, int nameFirst{(parameter.Length == 0 ? "" : ", " + parameter)})\n");
            text.Append("        where TName : unmanaged\n");
            text.Append($"    {{\n{check}        int p = BeginNamed(name, nameFirst, {b.Room});\n{body}");
        }
    }

    private sealed record Bounded(string? Check, string Room, string Write, string Token);

    private sealed record NameKind(string Type, string Parameter, string Summary, string Doc);

    private sealed record ValueKind(string Method, string? Type, string? Parameter, string Summary, string? Doc, string? Arguments)
    {
        public Bounded? Bounded { get; init; }
    }
}
