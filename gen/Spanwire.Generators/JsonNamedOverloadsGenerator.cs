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
/// whose name ends in ".docs.xml"), so each sentence is written once.
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

    // Utf8JsonWriter's method, the value parameter (none for null and the starts), the summary's end, its <param>
    // text, and the core call's trailing arguments.
    private static readonly ValueKind[] s_values =
    [
        new("WriteString", "JsonEncodedText", "value", "a pre-encoded string value", "The pre-encoded value, written as it is.", "value"),
        new("WriteString", "ReadOnlySpan<char>", "value", "a string value", "The value; escaped as the options' encoder requires.", "value"),
        new("WriteString", "ReadOnlySpan<byte>", "utf8Value", "a UTF-8 string value", "The value as UTF-8; escaped as the options' encoder requires.", "utf8Value"),
        new("WriteString", "DateTime", "value", "a DateTime as an ISO 8601 string", "The date and time, written as an ISO 8601 string as Utf8JsonWriter writes it.", "value"),
        new("WriteString", "DateTimeOffset", "value", "a DateTimeOffset as an ISO 8601 string", "The date and time, written as an ISO 8601 string as Utf8JsonWriter writes it.", "value"),
        new("WriteString", "Guid", "value", "a Guid string", "The Guid, written as a string in its \"D\" format.", "value"),
        new("WriteNumber", "long", "value", "an integer", "The number, formatted as Utf8JsonWriter formats it.", "value"),
        new("WriteNumber", "ulong", "value", "an integer", "The number, formatted as Utf8JsonWriter formats it.", "value"),
        new("WriteNumber", "float", "value", "a number (NaN and infinities are refused)", "The number, formatted as Utf8JsonWriter formats it.", "value"),
        new("WriteNumber", "double", "value", "a number (NaN and infinities are refused)", "The number, formatted as Utf8JsonWriter formats it.", "value"),
        new("WriteNumber", "decimal", "value", "a decimal number", "The number, formatted as Utf8JsonWriter formats it.", "value"),
        new("WriteBoolean", "bool", "value", "true or false", "The value: <c>true</c> or <c>false</c>.", "value"),
        new("WriteBase64String", "ReadOnlySpan<byte>", "bytes", "bytes as a Base64 string", "The bytes to write as Base64.", "bytes"),
        new("WriteNumber", "int", "value", "an integer", "The number, formatted as Utf8JsonWriter formats it.", "(long)value"),
        new("WriteNumber", "uint", "value", "an integer", "The number, formatted as Utf8JsonWriter formats it.", "(ulong)value"),
        new("WriteString", "string?", "value", "a string value (null writes the null literal)", "The value; escaped as the options' encoder requires.", null),
        new("WriteNull", null, null, "null", null, ""),
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
        StringBuilder text = GeneratedSource.Begin("the property-name-and-value overloads", ns, "System", "System.Text.Json");
        text.Append($"public sealed partial class {type}\n{{");
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

    private sealed record NameKind(string Type, string Parameter, string Summary, string Doc);

    private sealed record ValueKind(string Method, string? Type, string? Parameter, string Summary, string? Doc, string? Arguments);
}
