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

    private void WriteStringCore<TName>(ReadOnlySpan<TName> name, int nameFirst, ReadOnlySpan<char> value)
        where TName : unmanaged
    {
        CheckTokenSize(value.Length);
        int valueFirst = _escaping.StartOfEscaping(value);
        if (valueFirst >= 0 && _w.End - _w.Pos < NamedRoom(MaxNameCost(name, nameFirst), TextCost(value.Length, valueFirst, 3) + 2))
        {
            WriteStringExact(name, nameFirst, value, valueFirst);
            return;
        }

        int p = BeginNamed(name, nameFirst, TextCost(value.Length, valueFirst, 3) + 2);
        EndValue(WriteQuoted(_w.Buffer, p, value, valueFirst), JsonTokenType.String);
    }

    private void WriteStringCore<TName>(ReadOnlySpan<TName> name, int nameFirst, ReadOnlySpan<byte> utf8Value)
        where TName : unmanaged
    {
        CheckTokenSize(utf8Value.Length);
        int valueFirst = _escaping.StartOfEscaping(utf8Value);
        if (valueFirst >= 0 && _w.End - _w.Pos < NamedRoom(MaxNameCost(name, nameFirst), TextCost(utf8Value.Length, valueFirst, 1) + 2))
        {
            WriteStringExact(name, nameFirst, utf8Value, valueFirst);
            return;
        }

        int p = BeginNamed(name, nameFirst, TextCost(utf8Value.Length, valueFirst, 1) + 2);
        EndValue(WriteQuoted(_w.Buffer, p, utf8Value, valueFirst), JsonTokenType.String);
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
            int at = BeginNamed(name, nameFirst, TextCost(value.Length, -1, typeof(TUnit) == typeof(char) ? 3 : 1) + 2);
            EndValue(typeof(TUnit) == typeof(char)
                ? WriteQuoted(_w.Buffer, at, MemoryMarshal.Cast<TUnit, char>(value), -1)
                : WriteQuoted(_w.Buffer, at, MemoryMarshal.Cast<TUnit, byte>(value), -1), JsonTokenType.String);
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

    private void WriteStringCore<TName>(ReadOnlySpan<TName> name, int nameFirst, DateTime value)
        where TName : unmanaged
    {
        int p = BeginNamed(name, nameFirst, MaxDateLength);
        EndValue(DateTimeAt(_w.Buffer, p, value), JsonTokenType.String);
    }

    private void WriteStringCore<TName>(ReadOnlySpan<TName> name, int nameFirst, DateTimeOffset value)
        where TName : unmanaged
    {
        int p = BeginNamed(name, nameFirst, MaxDateLength);
        EndValue(DateTimeOffsetAt(_w.Buffer, p, value), JsonTokenType.String);
    }

    private void WriteStringCore<TName>(ReadOnlySpan<TName> name, int nameFirst, Guid value)
        where TName : unmanaged
    {
        int p = BeginNamed(name, nameFirst, MaxGuidLength);
        EndValue(GuidAt(_w.Buffer, p, value), JsonTokenType.String);
    }

    private void WriteNumberCore<TName>(ReadOnlySpan<TName> name, int nameFirst, long value)
        where TName : unmanaged
    {
        int p = BeginNamed(name, nameFirst, MaxInt64Length);
        EndValue(NumberAt(_w.Buffer, p, value), JsonTokenType.Number);
    }

    private void WriteNumberCore<TName>(ReadOnlySpan<TName> name, int nameFirst, ulong value)
        where TName : unmanaged
    {
        int p = BeginNamed(name, nameFirst, MaxInt64Length);
        EndValue(NumberAt(_w.Buffer, p, value), JsonTokenType.Number);
    }

    private void WriteNumberCore<TName>(ReadOnlySpan<TName> name, int nameFirst, float value)
        where TName : unmanaged
    {
        CheckFinite(value);
        int p = BeginNamed(name, nameFirst, MaxFloatingLength);
        EndValue(NumberAt(_w.Buffer, p, value), JsonTokenType.Number);
    }

    private void WriteNumberCore<TName>(ReadOnlySpan<TName> name, int nameFirst, double value)
        where TName : unmanaged
    {
        CheckFinite(value);
        int p = BeginNamed(name, nameFirst, MaxFloatingLength);
        EndValue(NumberAt(_w.Buffer, p, value), JsonTokenType.Number);
    }

    private void WriteNumberCore<TName>(ReadOnlySpan<TName> name, int nameFirst, decimal value)
        where TName : unmanaged
    {
        int p = BeginNamed(name, nameFirst, MaxDecimalLength);
        EndValue(NumberAt(_w.Buffer, p, value), JsonTokenType.Number);
    }

    private void WriteBooleanCore<TName>(ReadOnlySpan<TName> name, int nameFirst, bool value)
        where TName : unmanaged
    {
        int p = BeginNamed(name, nameFirst, value ? 4 : 5);
        EndValue(BooleanAt(_w.Buffer, p, value), value ? JsonTokenType.True : JsonTokenType.False);
    }

    private void WriteBase64StringCore<TName>(ReadOnlySpan<TName> name, int nameFirst, ReadOnlySpan<byte> bytes)
        where TName : unmanaged
    {
        CheckBase64Size(bytes.Length);
        int p = BeginNamed(name, nameFirst, Base64.GetMaxEncodedToUtf8Length(bytes.Length) + 2);
        EndValue(Base64At(_w.Buffer, p, bytes), JsonTokenType.String);
    }

    private void WriteNullCore<TName>(ReadOnlySpan<TName> name, int nameFirst)
        where TName : unmanaged
    {
        int p = BeginNamed(name, nameFirst, 4);
        EndValue(NullAt(_w.Buffer, p), JsonTokenType.Null);
    }

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
