using System;
using System.Linq;
using System.Text;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Text;

namespace Spanwire.Generators;

/// <summary>
/// Writes XmlDictionaryWriter's <c>WriteArray</c> and XmlDictionaryReader's <c>ReadArray</c> overrides for the
/// binary XML drop-ins marked <c>[GenerateArrayOverloads]</c>: every array type the binary format has a record for,
/// each with a string and an XmlDictionaryString name, each a one-line call of the class's generic core; and, for the
/// record writer (a marked class with neither base), its <c>WriteArray(prefix, localName, values)</c> overloads over
/// its typed <c>WriteArrayValues</c>. The types are the table below.
/// </summary>
[Generator(LanguageNames.CSharp)]
public sealed class XmlArrayOverloadsGenerator : IIncrementalGenerator
{
    private const string Marker = "Spanwire.BinaryXml.Xml.GenerateArrayOverloadsAttribute";

    // The element type, its value type in the record layer, a short name for the writer's delegate field, and how
    // the reader takes the items: copied as they are (on a little-endian machine), as booleans, or converted one by
    // one by the reader's s_{Field} item reader.
    private static readonly ArrayType[] s_types =
    [
        new("bool", "Bool", "bool", Read.Booleans),
        new("short", "Int16", "int16", Read.Raw),
        new("int", "Int32", "int32", Read.Raw),
        new("long", "Int64", "int64", Read.Raw),
        new("float", "Float", "float", Read.Raw),
        new("double", "Double", "double", Read.Raw),
        new("decimal", "Decimal", "decimal", Read.Items),
        new("DateTime", "DateTime", "dateTime", Read.Items),
        new("Guid", "Guid", "guid", Read.Items),
        new("TimeSpan", "TimeSpan", "timeSpan", Read.Items),
    ];

    private enum Read
    {
        Raw,
        Booleans,
        Items,
    }

    /// <inheritdoc/>
    public void Initialize(IncrementalGeneratorInitializationContext context)
    {
        context.RegisterSourceOutput(GeneratedSource.MarkedClasses(context, Marker), static (output, type) =>
            output.AddSource($"{type.Name}.Arrays.g.cs", SourceText.From(Emit(type.Namespace, type.Name, type.BaseName), Encoding.UTF8)));
    }

    private static string Emit(string ns, string type, string? baseName)
    {
        StringBuilder text = GeneratedSource.Begin("the typed array overloads", ns, "System", "System.Xml");
        text.Append($"partial class {type}\n{{\n");
        switch (baseName)
        {
            case "XmlDictionaryReader":
                EmitReader(text);
                break;
            case "XmlDictionaryWriter":
                EmitWriter(text);
                break;
            default:
                EmitRecordWriter(text);
                break;
        }

        text.Append("}\n");
        return text.ToString();
    }

    private static void EmitWriter(StringBuilder text)
    {
        foreach (ArrayType t in s_types)
        {
            text.Append($"    private static readonly ArrayValues<{t.Type}> s_{t.Field} = static (w, v) => w.WriteArrayValues(v);\n");
        }

        foreach (ArrayType t in s_types)
        {
            text.Append('\n');
            text.Append($"    public override void WriteArray(string? prefix, string localName, string? namespaceUri, {t.Type}[] array, int offset, int count) =>\n");
            text.Append($"        WriteArrayCore(prefix, localName, null, namespaceUri, null, array, offset, count, s_{t.Field});\n\n");
            text.Append($"    public override void WriteArray(string? prefix, XmlDictionaryString localName, XmlDictionaryString? namespaceUri, {t.Type}[] array, int offset, int count) =>\n");
            text.Append($"        WriteArrayCore(prefix, localName?.Value!, null, namespaceUri?.Value, null, array, offset, count, s_{t.Field});\n");
        }
    }

    private static void EmitRecordWriter(StringBuilder text)
    {
        foreach (ArrayType t in s_types)
        {
            if (t.Type == s_types[0].Type)
            {
                text.Append("    /// <summary>Writes <c>&lt;localName&gt;</c> repeated for every value as one Array record; an empty span writes nothing, as in-box.</summary>\n");
                text.Append("    /// <param name=\"prefix\">The prefix, or null for none.</param>\n");
                text.Append("    /// <param name=\"localName\">The local name; a dictionary string is written as its id when the dictionary or the session holds it.</param>\n");
                text.Append("    /// <param name=\"values\">The values, written as one array record.</param>\n");
            }
            else
            {
                text.Append('\n');
                text.Append($"    /// <inheritdoc cref=\"WriteArray(string?, string, ReadOnlySpan{{{s_types[0].Type}}})\"/>\n");
            }

            text.Append($"    public void WriteArray(string? prefix, string localName, ReadOnlySpan<{t.Type}> values)\n    {{\n");
            text.Append("        if (StartArray(prefix, localName, values.Length))\n        {\n");
            text.Append("            WriteArrayValues(values);\n        }\n    }\n");
        }
    }

    private static void EmitReader(StringBuilder text)
    {
        bool first = true;
        foreach (ArrayType t in s_types)
        {
            string condition = (t.Read == Read.Raw ? "BitConverter.IsLittleEndian && " : "") + $"IsStartArray(localName, namespaceUri, NbfxValueType.{t.ValueType})";
            string read = t.Read switch
            {
                Read.Raw => "ReadRaw(array, offset, count)",
                Read.Booleans => "ReadBooleans(array, offset, count)",
                _ => $"ReadItems(array, offset, count, s_{t.Field})",
            };
            foreach (string name in new[] { "string", "XmlDictionaryString" })
            {
                if (!first)
                {
                    text.Append('\n');
                }

                first = false;
                text.Append($"    public override int ReadArray({name} localName, {name} namespaceUri, {t.Type}[] array, int offset, int count) =>\n");
                text.Append($"        {condition} ? {read} : base.ReadArray(localName, namespaceUri, array, offset, count);\n");
            }
        }
    }

    private sealed record ArrayType(string Type, string ValueType, string Field, Read Read);
}
