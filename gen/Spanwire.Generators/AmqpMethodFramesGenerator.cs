using System;
using System.Collections.Generic;
using System.Collections.Immutable;
using System.Globalization;
using System.Linq;
using System.Text;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace Spanwire.Generators;

/// <summary>
/// Reads the method table, the <c>M(class, method, "name", "arguments"[, Content])</c> fields of <c>AmqpMethods</c>,
/// and writes from it, for every method, a writer of its whole frame (<c>AmqpMethodFrames.Write{Method}</c>, the
/// reserved arguments filled in) and a typed view of its arguments (<c>{Method}Arguments</c>). The table stays the one
/// place a method is defined; nothing in the client writes or reads arguments by position.
/// </summary>
[Generator(LanguageNames.CSharp)]
public sealed class AmqpMethodFramesGenerator : IIncrementalGenerator
{
    private static readonly HashSet<string> s_keywords = new(StringComparer.Ordinal) { "internal", "global", "class", "event", "object", "string", "params" };

    /// <inheritdoc/>
    public void Initialize(IncrementalGeneratorInitializationContext context)
    {
        IncrementalValuesProvider<MethodRow> rows = context.SyntaxProvider.CreateSyntaxProvider(
            static (node, _) => node is VariableDeclaratorSyntax { Initializer.Value: InvocationExpressionSyntax { Expression: IdentifierNameSyntax { Identifier.Text: "M" } } },
            static (context, _) => Read((VariableDeclaratorSyntax)context.Node))
            .Where(static row => row is not null)!;
        context.RegisterSourceOutput(rows.Collect(), static (output, all) =>
        {
            if (all.Length > 0)
            {
                output.AddSource("AmqpMethodFrames.g.cs", Emit(all));
            }
        });
    }

    private static MethodRow? Read(VariableDeclaratorSyntax field)
    {
        if (field.FirstAncestorOrSelf<ClassDeclarationSyntax>()?.Identifier.Text != "AmqpMethods")
        {
            return null;
        }

        SeparatedSyntaxList<ArgumentSyntax> args = ((InvocationExpressionSyntax)field.Initializer!.Value).ArgumentList.Arguments;
        if (args.Count < 4 || args[2].Expression is not LiteralExpressionSyntax name || args[3].Expression is not LiteralExpressionSyntax spec)
        {
            return null;
        }

        return new MethodRow(field.Identifier.Text, name.Token.ValueText, spec.Token.ValueText);
    }

    private static string Emit(ImmutableArray<MethodRow> rows)
    {
        StringBuilder text = GeneratedSource.Begin("frame writers and argument views from the method table in AmqpMethods.cs", "Spanwire.Amqp.Protocol", "System", "System.Buffers");
        text.AppendLine("/// <summary>Writes each AMQP method's whole frame from typed arguments; reserved arguments are written as the specification fixes them.</summary>");
        text.AppendLine("internal static partial class AmqpMethodFrames");
        text.AppendLine("{");
        foreach (MethodRow row in rows.OrderBy(r => r.Field, StringComparer.Ordinal))
        {
            EmitWriter(text, row);
        }

        text.AppendLine("}");
        foreach (MethodRow row in rows.OrderBy(r => r.Field, StringComparer.Ordinal))
        {
            if (row.Arguments.Any(a => !a.Reserved))
            {
                EmitView(text, row);
            }
        }

        return text.ToString();
    }

    private static void EmitWriter(StringBuilder text, MethodRow row)
    {
        Argument[] named = [.. row.Arguments.Where(a => !a.Reserved)];
        text.AppendLine();
        text.AppendLine($"    /// <summary>Writes a whole {row.Name} frame.</summary>");
        text.AppendLine("    /// <param name=\"output\">Where the frame goes.</param>");
        text.AppendLine("    /// <param name=\"channel\">The channel it is sent on.</param>");
        foreach (Argument a in named)
        {
            text.AppendLine($"    /// <param name=\"{a.Parameter.TrimStart('@')}\">The {a.Name} argument ({a.Domain}).</param>");
        }

        text.Append($"    public static void Write{row.Field}(IBufferWriter<byte> output, ushort channel");
        foreach (Argument a in named)
        {
            text.Append($", {a.ParameterType} {a.Parameter}");
        }

        text.AppendLine(")");
        text.AppendLine("    {");
        string[] variable = [.. named.Where(a => a.Domain is "longstr" or "table").Select(a => a.Domain == "table" ? $"{a.Parameter}.EncodedLength" : $"4 + {a.Parameter}.Length")];
        string size = variable.Length == 0 ? "" : $", AmqpMethods.{row.Field}.GetMaxArgumentsSize({string.Join(" + ", variable)})";
        string begin = $"AmqpFrameWriter.BeginMethod(output, channel, AmqpMethods.{row.Field}{size})";
        if (row.Arguments.Length == 0)
        {
            text.AppendLine($"        {begin}.Complete();");
        }
        else
        {
            text.AppendLine($"        AmqpMethodFrame frame = {begin};");
            foreach (Argument a in row.Arguments)
            {
                text.AppendLine($"        frame.Arguments.{a.WriteCall};");
            }

            text.AppendLine("        frame.Complete();");
        }

        text.AppendLine("    }");
    }

    private static void EmitView(StringBuilder text, MethodRow row)
    {
        text.AppendLine();
        text.AppendLine($"/// <summary>The arguments of a {row.Name}, by name, over its <see cref=\"AmqpMethodReader\"/>.</summary>");
        text.AppendLine($"internal readonly ref struct {row.Field}Arguments");
        text.AppendLine("{");
        text.AppendLine("    private readonly AmqpMethodReader _reader;");
        text.AppendLine();
        text.AppendLine($"    /// <summary>Views <paramref name=\"reader\"/>, which must hold a {row.Name}.</summary>");
        text.AppendLine("    /// <param name=\"reader\">The parsed method.</param>");
        text.AppendLine($"    /// <exception cref=\"ArgumentException\">The reader holds another method.</exception>");
        text.AppendLine($"    public {row.Field}Arguments(in AmqpMethodReader reader)");
        text.AppendLine("    {");
        text.AppendLine($"        if (reader.Method != AmqpMethods.{row.Field})");
        text.AppendLine("        {");
        text.AppendLine($"            AmqpMethodFrames.ThrowNotMethod(reader.Method, AmqpMethods.{row.Field});");
        text.AppendLine("        }");
        text.AppendLine();
        text.AppendLine("        _reader = reader;");
        text.AppendLine("    }");
        for (int i = 0; i < row.Arguments.Length; i++)
        {
            Argument a = row.Arguments[i];
            if (a.Reserved)
            {
                continue;
            }

            string index = i.ToString(CultureInfo.InvariantCulture);
            text.AppendLine();
            switch (a.Domain)
            {
                case "shortstr":
                case "longstr":
                    string getter = a.Domain == "shortstr" ? "GetShortString" : "GetLongString";
                    text.AppendLine($"    /// <summary>The {a.Name} argument, decoded from UTF-8 (allocates).</summary>");
                    text.AppendLine($"    public string {a.Property} => _reader.GetString({index});");
                    text.AppendLine();
                    text.AppendLine($"    /// <summary>The {a.Name} argument's bytes, as received.</summary>");
                    text.AppendLine($"    public ReadOnlySpan<byte> {a.Property}Bytes => _reader.{getter}({index});");
                    break;
                default:
                    text.AppendLine($"    /// <summary>The {a.Name} argument.</summary>");
                    text.AppendLine($"    public {a.ReadType} {a.Property} => _reader.{a.ReadCall}({index});");
                    break;
            }
        }

        text.AppendLine("}");
    }

    private sealed class MethodRow : IEquatable<MethodRow>
    {
        public MethodRow(string field, string name, string spec)
        {
            Field = field;
            Name = name;
            Spec = spec;
            Arguments = [.. spec.Split([' '], StringSplitOptions.RemoveEmptyEntries).Select(Argument.Parse)];
        }

        public string Field { get; }

        public string Name { get; }

        public string Spec { get; }

        public ImmutableArray<Argument> Arguments { get; }

        public bool Equals(MethodRow? other) => other is not null && other.Field == Field && other.Name == Name && other.Spec == Spec;

        public override bool Equals(object? obj) => Equals(obj as MethodRow);

        public override int GetHashCode() => StringComparer.Ordinal.GetHashCode(Field) ^ StringComparer.Ordinal.GetHashCode(Spec);
    }

    private sealed class Argument
    {
        private Argument(string name, string domain)
        {
            Name = name;
            Domain = domain;
            string[] words = name.Split('-');
            Property = string.Concat(words.Select(w => char.ToUpperInvariant(w[0]) + w.Substring(1)));
            string camel = char.ToLowerInvariant(Property[0]) + Property.Substring(1);
            Parameter = s_keywords.Contains(camel) ? "@" + camel : camel;
        }

        public string Name { get; }

        public string Domain { get; }

        public string Property { get; }

        public string Parameter { get; }

        public bool Reserved => Name.StartsWith("reserved-", StringComparison.Ordinal);

        public string ParameterType => Domain switch
        {
            "octet" => "byte",
            "short" => "ushort",
            "long" => "uint",
            "longlong" => "ulong",
            "timestamp" => "AmqpTimestamp",
            "bit" => "bool",
            "shortstr" => "ReadOnlySpan<char>",
            "longstr" => "ReadOnlySpan<byte>",
            "table" => "FieldTable",
            _ => throw new InvalidOperationException($"unknown AMQP domain {Domain}"),
        };

        public string ReadType => Domain switch
        {
            "table" => "FieldTableReader",
            _ => ParameterType,
        };

        public string ReadCall => Domain switch
        {
            "octet" => "GetOctet",
            "short" => "GetShort",
            "long" => "GetLong",
            "longlong" => "GetLongLong",
            "timestamp" => "GetTimestamp",
            "bit" => "GetBit",
            "table" => "GetTable",
            _ => throw new InvalidOperationException($"no typed read for {Domain}"),
        };

        public string WriteCall
        {
            get
            {
                string value = Reserved
                    ? Domain switch
                    {
                        "short" => "0",
                        "bit" => "false",
                        "shortstr" => "ReadOnlySpan<char>.Empty",
                        "longstr" => "ReadOnlySpan<byte>.Empty",
                        _ => throw new InvalidOperationException($"no reserved value for {Domain}"),
                    }
                    : Parameter;
                return Domain switch
                {
                    "octet" => $"WriteOctet({value})",
                    "short" => $"WriteShort({value})",
                    "long" => $"WriteLong({value})",
                    "longlong" => $"WriteLongLong({value})",
                    "timestamp" => $"WriteTimestamp({value})",
                    "bit" => $"WriteBit({value})",
                    "shortstr" => $"WriteShortString({value})",
                    "longstr" => $"WriteLongString({value})",
                    "table" => $"WriteTable({value})",
                    _ => throw new InvalidOperationException($"unknown AMQP domain {Domain}"),
                };
            }
        }

        public static Argument Parse(string spec)
        {
            int colon = spec.IndexOf(':');
            return new Argument(spec.Substring(0, colon), spec.Substring(colon + 1));
        }
    }
}
