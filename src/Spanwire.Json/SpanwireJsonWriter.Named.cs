using System.Buffers.Text;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Text.Json;

namespace Spanwire.Json;

// Property name and value in one call. The name is checked and read first (Name, which also finds where its escaping
// starts), then the value, then one validation and one reservation cover both and "name":value is written in one
// pass: the bytes of WritePropertyName followed by the value call, with Utf8JsonWriter's order of argument checks.
// The public overloads, every name kind crossed with every value kind, are generated (gen/Spanwire.Generators) and
// call the cores below.
[GenerateNamedOverloads]
public sealed partial class SpanwireJsonWriter
{
    private void WriteStringCore<TName>(ReadOnlySpan<TName> name, int nameFirst, JsonEncodedText value)
        where TName : unmanaged
    {
        int p = BeginNamed(name, nameFirst, value.EncodedUtf8Bytes.Length + 2);
        EndValue(WriteQuoted(_w.Buffer, p, value.EncodedUtf8Bytes, -1), JsonTokenType.String);
    }

    private void WriteStringCore<TName, TUnit>(ReadOnlySpan<TName> name, int nameFirst, ReadOnlySpan<TUnit> value)
        where TName : unmanaged
        where TUnit : unmanaged
    {
        CheckTokenSize(value.Length);
        int valueFirst = StartOfEscaping(value);
        if (valueFirst >= 0 && _w.End - _w.Pos < NamedRoom(MaxNameCost(name, nameFirst), TextCost(value.Length, valueFirst, UnitCost<TUnit>()) + 2))
        {
            WriteStringExact(name, nameFirst, value, valueFirst);
            return;
        }

        int p = BeginNamed(name, nameFirst, TextCost(value.Length, valueFirst, UnitCost<TUnit>()) + 2);
        EndValue(WriteQuotedText(_w.Buffer, p, value, valueFirst), JsonTokenType.String);
    }

    /// <summary>A name and a string value that may need escaping where the room left is short: see WriteStringValueExact.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void WriteStringExact<TName, TUnit>(ReadOnlySpan<TName> name, int nameFirst, ReadOnlySpan<TUnit> value, int valueFirst)
        where TName : unmanaged
        where TUnit : unmanaged
    {
        valueFirst = Scanned(value, valueFirst);
        if (valueFirst < 0)
        {
            int at = BeginNamed(name, nameFirst, TextCost(value.Length, -1, UnitCost<TUnit>()) + 2);
            EndValue(WriteQuotedText(_w.Buffer, at, value, -1), JsonTokenType.String);
            return;
        }

        using EscapedText escaped = Escape(value, valueFirst);
        int p = BeginNamed(name, nameFirst, escaped.Cost + 2);
        EndValue(WriteQuoted(_w.Buffer, p, escaped.Utf8, -1), JsonTokenType.String);
    }

    /// <summary>The most a property name may cost in Utf8JsonWriter's room rule.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static long MaxNameCost<TName>(ReadOnlySpan<TName> name, int nameFirst)
        where TName : unmanaged => MaxTextCost(name.Length, nameFirst, typeof(TName) == typeof(char) ? 3 : 1);

    private void WriteStartCore<TName>(ReadOnlySpan<TName> name, int nameFirst, bool isObject)
        where TName : unmanaged
    {
        if (_depth >= _maxDepth)
        {
            ThrowDepthTooLarge();
        }

        // One room request for "name": and the token, as Utf8JsonWriter makes.
        int p = BeginNamed(name, nameFirst, 1);
        byte token = isObject ? (byte)'{' : (byte)'[';
        _w.Buffer[p++] = token;
        _w.Pos = p;
        Opened(token, isObject ? JsonTokenType.StartObject : JsonTokenType.StartArray);
    }
}
