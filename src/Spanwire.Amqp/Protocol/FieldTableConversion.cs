using System.Collections;
using System.Diagnostics;
using System.Diagnostics.CodeAnalysis;
using System.Globalization;
using System.Runtime.CompilerServices;
using System.Text;

namespace Spanwire.Amqp.Protocol;

/// <summary>
/// Converts field tables to and from <see cref="IDictionary{TKey, TValue}"/>, for code that wants objects rather than
/// the in-place readers. The mapping round-trips: decoding and re-encoding gives the same bytes.
/// </summary>
/// <remarks>
/// Encoding: bool t, sbyte b, byte B, short s, ushort u, int I, uint i, long l, float f, double d,
/// decimal and <see cref="AmqpDecimal"/> D, string (UTF-8) and byte[] S, <see cref="ReadOnlyMemory{T}"/> of byte x,
/// <see cref="AmqpTimestamp"/> T, a dictionary F, any other enumerable A, null V. Decoding gives the same types back,
/// with S as byte[] (longstr is bytes; RabbitMQ.Client does the same), D as decimal, and L as long.
/// </remarks>
public static class FieldTableConversion
{
    /// <summary>Copies a table out as a dictionary.</summary>
    /// <param name="table">The table, read in place.</param>
    /// <returns>The fields by name, nested tables as dictionaries and arrays as lists.</returns>
    /// <exception cref="AmqpProtocolException">The table is malformed, or tables and arrays nest deeper than
    /// 64 levels, as <see cref="FieldTableReader.Validate"/> checks (the walk is bounded, so hostile input cannot exhaust the stack).</exception>
    public static Dictionary<string, object?> ToDictionary(FieldTableReader table) =>
        ToDictionary(table.RawContent, table.Offset, depth: 0, FieldNameCache.ForThread());

    /// <summary>
    /// Decodes an encoded table (its 4-byte length, then its fields) into a dictionary in one pass, checking every
    /// field as it is read: what <see cref="FieldTableReader.Parse"/> then <see cref="ToDictionary(FieldTableReader)"/>
    /// give, without the separate checking walk.
    /// </summary>
    /// <param name="encoded">The table as on the wire: its length, its fields, and nothing after them.</param>
    /// <param name="offset">Where <paramref name="encoded"/> starts in its frame, for the exception's byte offset.</param>
    /// <returns>The fields by name, nested tables as dictionaries and arrays as lists.</returns>
    /// <exception cref="AmqpProtocolException">The table is malformed (its length disagrees with the bytes given, a
    /// field is cut short or of an unknown type), or tables and arrays nest deeper than 64 levels.</exception>
    /// <example>
    /// <code>
    /// Dictionary&lt;string, object?&gt; headers = FieldTableConversion.ToDictionary(encodedTable);
    /// </code>
    /// </example>
    public static Dictionary<string, object?> ToDictionary(ReadOnlySpan<byte> encoded, long offset = 0)
    {
        var reader = new AmqpPayloadReader(encoded, offset);
        FieldTableReader table = reader.ReadTable();
        reader.EnsureEnd("The field table");
        return ToDictionary(table.RawContent, table.Offset, depth: 0, FieldNameCache.ForThread());
    }

    /// <summary>Copies an array out as a list.</summary>
    /// <param name="array">The array, read in place.</param>
    /// <returns>The values in wire order.</returns>
    /// <exception cref="AmqpProtocolException">The array is malformed, or nests deeper than 64 levels.</exception>
    public static List<object?> ToList(FieldArrayReader array) => ToList(array.RawContent, array.Offset, depth: 0, FieldNameCache.ForThread());

    /// <summary>A value as an object.</summary>
    /// <param name="value">The value, read in place.</param>
    /// <returns>The value boxed as the type listed above, or null for void.</returns>
    /// <exception cref="AmqpProtocolException">A nested table or array is malformed or nests too deep.</exception>
    public static object? ToObject(FieldValue value) => ToObject(value, depth: 0, FieldNameCache.ForThread());

    // Each field is read with the reader's own bounds and type checks, in wire order, so a malformed table fails
    // where a checking walk would; depth bounds the recursion.
    private static Dictionary<string, object?> ToDictionary(ReadOnlySpan<byte> content, long offset, int depth, FieldNameCache names)
    {
        FieldCodec.CheckDepth(depth, offset);
        var result = new Dictionary<string, object?>(StringComparer.Ordinal);
        int position = 0;
        while (position < content.Length)
        {
            string name = names.Get(FieldCodec.ReadName(content, ref position, offset));
            result[name] = ToObject(FieldCodec.ReadValue(content, ref position, offset), depth, names);
        }

        return result;
    }

    private static List<object?> ToList(ReadOnlySpan<byte> content, long offset, int depth, FieldNameCache names)
    {
        FieldCodec.CheckDepth(depth, offset);
        var result = new List<object?>();
        int position = 0;
        while (position < content.Length)
        {
            result.Add(ToObject(FieldCodec.ReadValue(content, ref position, offset), depth, names));
        }

        return result;
    }

    private static readonly object s_true = true;
    private static readonly object s_false = false;

    // depth is the level of the table or array holding the value.
    private static object? ToObject(FieldValue value, int depth, FieldNameCache names) => value.Type switch
    {
        FieldValueType.Boolean => value.GetBoolean() ? s_true : s_false,
        FieldValueType.SByte => value.GetSByte(),
        FieldValueType.Byte => value.GetByte(),
        FieldValueType.Int16 => value.GetInt16(),
        FieldValueType.UInt16 => value.GetUInt16(),
        FieldValueType.Int32 => value.GetInt32(),
        FieldValueType.UInt32 => value.GetUInt32(),
        FieldValueType.Int64 or FieldValueType.Int64Legacy => value.GetInt64(),
        FieldValueType.Single => value.GetSingle(),
        FieldValueType.Double => value.GetDouble(),
        FieldValueType.Decimal => ToObject(value.GetDecimal()),
        FieldValueType.LongString => value.GetLongString().ToArray(),
        FieldValueType.ByteArray => new ReadOnlyMemory<byte>(value.GetByteArray().ToArray()),
        FieldValueType.Timestamp => value.GetTimestamp(),
        FieldValueType.Table => ToDictionary(value.RawBytes, value.Offset, depth + 1, names),
        FieldValueType.Array => ToList(value.RawBytes, value.Offset, depth + 1, names),
        _ => null,
    };

    // A decimal that System.Decimal can hold becomes one; a larger scale stays an AmqpDecimal.
    private static object ToObject(AmqpDecimal value) => value.Scale <= 28 ? value.ToDecimal() : value;

    /// <summary>Encodes fields as a table, length prefix included. Allocates the result.</summary>
    /// <exception cref="ArgumentException">A value has a type with no field type, or a name is over 255 UTF-8 bytes.</exception>
    /// <exception cref="OverflowException">A decimal does not fit an AMQP decimal.</exception>
    /// <param name="fields">The fields, by name.</param>
    /// <returns>The encoded table.</returns>
    public static byte[] Encode(IEnumerable<KeyValuePair<string, object?>> fields)
    {
        ArgumentNullException.ThrowIfNull(fields);

        // Sized first, then written: the fields are walked twice, so a lazy sequence is taken into a list once.
        IReadOnlyCollection<KeyValuePair<string, object?>> all = fields as IReadOnlyCollection<KeyValuePair<string, object?>> ?? [.. fields];
        long size = 4;
        foreach (KeyValuePair<string, object?> field in all)
        {
            size += AmqpPrimitives.GetShortStringSize(field.Key) + GetValueSize(field.Value, 1);
        }

        if (size > int.MaxValue)
        {
            throw new ArgumentException("The table is larger than 2 GiB.", nameof(fields));
        }

        byte[] result = new byte[size];
        var writer = new FieldTableWriter(result);
        foreach (KeyValuePair<string, object?> field in all)
        {
            writer.WriteName(field.Key);
            WriteValue(ref writer, field.Value);
        }

        writer.Complete();
        return result;
    }

    /// <summary>Writes one object as a field value (see the type mapping above).</summary>
    /// <param name="writer">The writer, positioned where a value goes.</param>
    /// <param name="value">The value; dictionaries become tables and other enumerables arrays.</param>
    /// <exception cref="ArgumentException">A value has a type with no field type, a name is over 255 UTF-8 bytes, or
    /// dictionaries and enumerables nest deeper than <see cref="FieldTableWriter.MaxDepth"/> levels (a collection that
    /// contains itself included).</exception>
    /// <exception cref="OverflowException">A decimal does not fit an AMQP decimal.</exception>
    public static void WriteValue(ref FieldTableWriter writer, object? value) => WriteValue(ref writer, value, depth: 1);

    private static void WriteValue(ref FieldTableWriter writer, object? value, int depth)
    {
        if (depth > FieldTableWriter.MaxDepth)
        {
            ThrowTooDeep(nameof(value));
        }

        // The types headers hold most often come first, and the array test (a call to the runtime's cast helper) after them.
        switch (value)
        {
            case null: writer.WriteVoid(); break;
            case string v: writer.WriteLongString(v.AsSpan()); break;
            case int v: writer.WriteInt32(v); break;
            case long v: writer.WriteInt64(v); break;
            case bool v: writer.WriteBoolean(v); break;
            case sbyte v: writer.WriteSByte(v); break;
            case byte v: writer.WriteByte(v); break;
            case short v: writer.WriteInt16(v); break;
            case ushort v: writer.WriteUInt16(v); break;
            case uint v: writer.WriteUInt32(v); break;
            case float v: writer.WriteSingle(v); break;
            case double v: writer.WriteDouble(v); break;
            case decimal v: writer.WriteDecimal(v); break;
            case AmqpDecimal v: writer.WriteDecimal(v); break;
            case AmqpTimestamp v: writer.WriteTimestamp(v); break;
            // Dictionary and List, the types headers are nearly always built from, are walked with their own
            // enumerators: through the interfaces each nested table or array would allocate one.
            // (Their enumerators hold nothing to dispose.)
            case Dictionary<string, object?> table: WriteFields(ref writer, table.GetEnumerator(), depth); break;
            case List<object?> list: WriteItems(ref writer, list.GetEnumerator(), depth); break;
            case byte[] v: writer.WriteLongString(v.AsSpan()); break;
            case ReadOnlyMemory<byte> v: writer.WriteByteArray(v.Span); break;
            case FieldTable v: writer.WriteTable(v); break;
            case IEnumerable<KeyValuePair<string, object?>> table:
                {
                    using IEnumerator<KeyValuePair<string, object?>> fields = table.GetEnumerator();
                    WriteFields(ref writer, fields, depth);
                    break;
                }

            case IEnumerable array:
                {
                    using IEnumerator<object?> items = array.Cast<object?>().GetEnumerator();
                    WriteItems(ref writer, items, depth);
                    break;
                }

            default:
                ThrowNoFieldType(value);
                break;
        }
    }

    [DoesNotReturn, MethodImpl(MethodImplOptions.NoInlining)]
    private static void ThrowNoFieldType(object value) => throw new ArgumentException($"A {value.GetType()} has no AMQP field type.", nameof(value));

    /// <summary>The fields of a table value; a struct enumerator is used as it is (no box). The caller disposes it.</summary>
    private static void WriteFields<TEnumerator>(ref FieldTableWriter writer, TEnumerator fields, int depth)
        where TEnumerator : IEnumerator<KeyValuePair<string, object?>>
    {
        writer.WriteStartTable();
        while (fields.MoveNext())
        {
            KeyValuePair<string, object?> field = fields.Current;
            writer.WriteName(field.Key);
            WriteValue(ref writer, field.Value, depth + 1);
        }

        writer.WriteEndTable();
    }

    /// <summary>The items of an array value; a struct enumerator is used as it is (no box). The caller disposes it.</summary>
    private static void WriteItems<TEnumerator>(ref FieldTableWriter writer, TEnumerator items, int depth)
        where TEnumerator : IEnumerator<object?>
    {
        writer.WriteStartArray();
        while (items.MoveNext())
        {
            WriteValue(ref writer, items.Current, depth + 1);
        }

        writer.WriteEndArray();
    }

    private static long GetValueSize(object? value, int depth)
    {
        if (depth > FieldTableWriter.MaxDepth)
        {
            ThrowTooDeep(nameof(value));
        }

        return 1 + value switch
        {
            null => 0,
            bool or sbyte or byte => 1,
            short or ushort => 2,
            int or uint or float => 4,
            decimal or AmqpDecimal => 5,
            long or double or AmqpTimestamp => 8,
            string v => 4L + AmqpPrimitives.GetUtf8ByteCount(v),
            byte[] v => 4L + v.Length,
            ReadOnlyMemory<byte> v => 4L + v.Length,
            FieldTable v => v.EncodedLength,
            IEnumerable<KeyValuePair<string, object?>> table => 4 + SumFields(table, depth),
            IEnumerable array => 4 + SumItems(array, depth),
            _ => throw new ArgumentException($"A {value.GetType()} has no AMQP field type.", nameof(value)),
        };
    }

    [DoesNotReturn]
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void ThrowTooDeep(string paramName) =>
        throw new ArgumentException($"Tables and arrays nest deeper than {FieldTableWriter.MaxDepth} levels.", paramName);

    private static long SumFields(IEnumerable<KeyValuePair<string, object?>> table, int depth)
    {
        long sum = 0;
        foreach (KeyValuePair<string, object?> field in table)
        {
            sum += AmqpPrimitives.GetShortStringSize(field.Key) + GetValueSize(field.Value, depth + 1);
        }

        return sum;
    }

    private static long SumItems(IEnumerable array, int depth)
    {
        long sum = 0;
        foreach (object? item in array)
        {
            sum += GetValueSize(item, depth + 1);
        }

        return sum;
    }

    /// <summary>A one-line, human-readable form of a table: <c>{name=value, ...}</c>, with longstr values quoted.</summary>
    /// <param name="table">The table, read in place.</param>
    /// <returns>The text.</returns>
    /// <exception cref="AmqpProtocolException">The table is malformed, or nests deeper than 64 levels.</exception>
    public static string Describe(FieldTableReader table)
    {
        var text = new StringBuilder();
        Describe(table, text);
        return text.ToString();
    }

    internal static void Describe(FieldTableReader table, StringBuilder text) => Describe(table, text, depth: 0);

    private static void Describe(FieldTableReader table, StringBuilder text, int depth)
    {
        FieldCodec.CheckDepth(depth, table.Offset);
        text.Append('{');
        bool first = true;
        foreach (FieldTableEntry entry in table)
        {
            text.Append(first ? "" : ", ");
            first = false;
            AppendQuoted(text, entry.Name, quoteAlways: false);
            text.Append('=');
            Describe(entry.Value, text, depth);
        }

        text.Append('}');
    }

    // depth is the level of the table or array holding the value.
    private static void Describe(FieldValue value, StringBuilder text, int depth)
    {
        IFormatProvider inv = CultureInfo.InvariantCulture;
        switch (value.Type)
        {
            case FieldValueType.Boolean: text.Append(value.GetBoolean() ? "true" : "false"); break;
            case FieldValueType.LongString: AppendQuoted(text, value.GetLongString(), quoteAlways: true); break;
            case FieldValueType.ByteArray: text.Append("bytes[").Append(value.GetByteArray().Length).Append(']'); break;
            case FieldValueType.Void: text.Append("void"); break;
            case FieldValueType.Single: text.Append(value.GetSingle().ToString("R", inv)).Append('f'); break;
            case FieldValueType.Double: text.Append(value.GetDouble().ToString("R", inv)); break;
            case FieldValueType.Decimal: text.Append(value.GetDecimal().ToString()).Append('m'); break;
            case FieldValueType.Timestamp: text.Append(value.GetTimestamp().ToString()); break;
            case FieldValueType.Table: Describe(value.GetTable(), text, depth + 1); break;
            case FieldValueType.Array:
                FieldCodec.CheckDepth(depth + 1, value.Offset);
                text.Append('[');
                bool first = true;
                foreach (FieldValue item in value.GetArray())
                {
                    text.Append(first ? "" : ", ");
                    first = false;
                    Describe(item, text, depth + 1);
                }

                text.Append(']');
                break;
            default:
                bool integral = value.TryGetInteger(out long integer);
                Debug.Assert(integral, "every other value type is a case above");
                text.Append(integer.ToString(inv));
                break;
        }
    }

    /// <summary>Appends UTF-8 bytes as text, quoted and escaped when needed; control characters and invalid bytes are escaped.</summary>
    internal static void AppendQuoted(StringBuilder text, ReadOnlySpan<byte> utf8, bool quoteAlways)
    {
        string decoded = Encoding.UTF8.GetString(utf8);
        bool plain = !quoteAlways && decoded.Length > 0;
        foreach (char c in decoded)
        {
            if (!(char.IsAsciiLetterOrDigit(c) || c is '-' or '_' or '.' or ':'))
            {
                plain = false;
                break;
            }
        }

        if (plain)
        {
            text.Append(decoded);
            return;
        }

        text.Append('"');
        foreach (char c in decoded)
        {
            switch (c)
            {
                case '"': text.Append("\\\""); break;
                case '\\': text.Append("\\\\"); break;
                case '\n': text.Append("\\n"); break;
                case '\r': text.Append("\\r"); break;
                case '\t': text.Append("\\t"); break;
                default:
                    if (char.IsControl(c))
                    {
                        text.Append("\\u").Append(((int)c).ToString("x4", CultureInfo.InvariantCulture));
                    }
                    else
                    {
                        text.Append(c);
                    }

                    break;
            }
        }

        text.Append('"');
    }
}
