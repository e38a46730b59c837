using System.Buffers;
using System.Buffers.Text;
using System.Diagnostics.CodeAnalysis;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Text;
using System.Text.Json;

namespace Spanwire.Json;

// One JSON string written in several calls (WriteStringValueSegment, WriteBase64StringSegment), as Utf8JsonWriter
// does: the opening quote with the first segment, the closing one with the final segment; a character split across
// segments (or a Base64 group of fewer than 3 bytes) is carried to the next one. While such a string is open,
// validation refuses everything but more segments of the same kind.
public sealed partial class SpanwireJsonWriter
{
    private const string WithinStringMessage = "Writing a JSON property or value before writing the final string value segment is not supported.";

    /// <summary>Whether a string written in segments is open.</summary>
    private bool InSegmentedString => _side is { Segment: not StringSegment.None };

    private StringSegment OpenSegment => _side?.Segment ?? StringSegment.None;

    /// <summary>Which kind of segmented string is open (the values are Utf8JsonWriter's order of encodings).</summary>
    private enum StringSegment : byte
    {
        None,
        Utf8,
        Utf16,
        Base64,
    }

    /// <summary>Room for the bytes carried between segments: a UTF-8 character's first 3, a UTF-16 high surrogate, or 2 Base64 bytes.</summary>
    [InlineArray(3)]
    private struct SegmentCarry
    {
        private byte _first;
    }

    /// <summary>Writes UTF-16 text as one segment of a JSON string value, escaping it as the options' encoder requires.</summary>
    /// <param name="value">The segment; a high surrogate at its end waits for the next segment's low one.</param>
    /// <param name="isFinalSegment">True for the last segment: the string is closed.</param>
    /// <exception cref="ArgumentException"><paramref name="value"/> is too large.</exception>
    /// <exception cref="InvalidOperationException">
    /// (Validating) a value cannot be written here, or the string's earlier segments were not UTF-16.
    /// </exception>
    /// <example>
    /// <code>
    /// json.WriteStringValueSegment("Hello, ", isFinalSegment: false);
    /// json.WriteStringValueSegment("world", isFinalSegment: true); // "Hello, world"
    /// </code>
    /// </example>
    public void WriteStringValueSegment(scoped ReadOnlySpan<char> value, bool isFinalSegment)
    {
        CheckTokenSize(value.Length);
        BeginSegment(StringSegment.Utf16);
        SideState side = _side!;
        if (side.CarryLength != 0)
        {
            ReadOnlySpan<char> carried = MemoryMarshal.Cast<byte, char>(((ReadOnlySpan<byte>)side.Carry)[..side.CarryLength]);
            Span<char> joined = stackalloc char[2];
            joined = joined[..Join(carried, value, joined)];
            scoped ReadOnlySpan<char> whole = default;
            switch (Rune.DecodeFromUtf16(joined, out _, out int consumed))
            {
                case OperationStatus.NeedMoreData:
                    value = joined[..consumed];
                    break;
                default: // a whole character, or an invalid one: written on its own, then the rest
                    value = value[(consumed - carried.Length)..];
                    whole = joined[..consumed];
                    break;
            }

            WriteSegmentText(whole, isFinalSegment: true);
            side.CarryLength = 0;
        }

        WriteSegmentText(value, isFinalSegment);
        EndSegment(isFinalSegment);
    }

    /// <summary>Writes UTF-8 text as one segment of a JSON string value, escaping it as the options' encoder requires.</summary>
    /// <param name="value">The segment; an incomplete character at its end waits for the next segment's bytes.</param>
    /// <param name="isFinalSegment">True for the last segment: the string is closed.</param>
    /// <exception cref="ArgumentException"><paramref name="value"/> is too large.</exception>
    /// <exception cref="InvalidOperationException">
    /// (Validating) a value cannot be written here, or the string's earlier segments were not UTF-8.
    /// </exception>
    public void WriteStringValueSegment(scoped ReadOnlySpan<byte> value, bool isFinalSegment)
    {
        CheckTokenSize(value.Length);
        BeginSegment(StringSegment.Utf8);
        SideState side = _side!;
        if (side.CarryLength != 0)
        {
            ReadOnlySpan<byte> carried = ((ReadOnlySpan<byte>)side.Carry)[..side.CarryLength];
            Span<byte> joined = stackalloc byte[4];
            joined = joined[..Join(carried, value, joined)];
            scoped ReadOnlySpan<byte> whole = default;
            switch (Rune.DecodeFromUtf8(joined, out _, out int consumed))
            {
                case OperationStatus.NeedMoreData:
                    value = joined[..consumed];
                    break;
                default:
                    value = value[(consumed - carried.Length)..];
                    whole = joined[..consumed];
                    break;
            }

            WriteSegmentText(whole, isFinalSegment: true);
            side.CarryLength = 0;
        }

        WriteSegmentText(value, isFinalSegment);
        EndSegment(isFinalSegment);
    }

    /// <summary>Writes bytes as one segment of a Base64 JSON string value.</summary>
    /// <param name="value">The segment's bytes; up to 2 bytes that do not fill a 3-byte group wait for the next segment.</param>
    /// <param name="isFinalSegment">True for the last segment: padding is written and the string is closed.</param>
    /// <exception cref="ArgumentException"><paramref name="value"/> is too large.</exception>
    /// <exception cref="InvalidOperationException">
    /// (Validating) a value cannot be written here, or the string's earlier segments were not Base64.
    /// </exception>
    public void WriteBase64StringSegment(scoped ReadOnlySpan<byte> value, bool isFinalSegment)
    {
        if (value.Length > Base64.GetMaxDecodedFromUtf8Length(int.MaxValue))
        {
            JsonThrow.TooLarge(value.Length);
        }

        BeginSegment(StringSegment.Base64);
        SideState side = _side!;
        if (side.CarryLength != 0)
        {
            ReadOnlySpan<byte> carried = ((ReadOnlySpan<byte>)side.Carry)[..side.CarryLength];
            Span<byte> joined = stackalloc byte[3];
            joined = joined[..Join(carried, value, joined)];
            scoped ReadOnlySpan<byte> group = default;
            if (joined.Length == 3)
            {
                value = value[(3 - carried.Length)..];
                group = joined;
            }
            else
            {
                value = joined;
            }

            WriteBase64Segment(group, isFinalSegment: false);
            side.CarryLength = 0;
        }

        WriteBase64Segment(value, isFinalSegment);
        EndSegment(isFinalSegment);
    }

    /// <summary>Validates, and opens the string (separator, indentation, quote) unless a segment of this kind already did.</summary>
    private void BeginSegment(StringSegment kind)
    {
        StringSegment open = OpenSegment;
        if (_validate && open != kind && (open != StringSegment.None || !CanWriteValue()))
        {
            ThrowCannotBeginSegment(kind);
        }

        if (open != kind)
        {
            int p = BeginValueUnchecked(1);
            _w.Buffer[p++] = (byte)'"';
            _w.Pos = p;
            (_side ??= new SideState()).Segment = kind;
        }
    }

    private bool CanWriteValue() => _container switch
    {
        Container.Object => _tokenType == JsonTokenType.PropertyName,
        Container.Array => true,
        _ => _tokenType == JsonTokenType.None,
    };

    /// <summary>After a segment: on the final one, the closing quote and the string counts as a value.</summary>
    private void EndSegment(bool isFinalSegment)
    {
        if (!isFinalSegment)
        {
            return;
        }

        if (_w.Pos == _w.End)
        {
            Grow(1);
        }

        _w.Buffer[_w.Pos++] = (byte)'"';
        _side!.Segment = StringSegment.None;
        _needsComma = true;
        _tokenType = JsonTokenType.String;
    }

    /// <summary>
    /// Writes text escaped; unless final, an incomplete character at the end is carried instead. Asks for room as
    /// Utf8JsonWriter does: the text as it is (x3 for UTF-16) when nothing needs escaping, else its escaped length.
    /// </summary>
    private void WriteSegmentText<TUnit>(ReadOnlySpan<TUnit> value, bool isFinalSegment)
        where TUnit : unmanaged
    {
        if (value.IsEmpty)
        {
            return;
        }

        int carry = isFinalSegment ? 0 : IncompleteAtEnd(value);
        int first = typeof(TUnit) == typeof(char)
            ? _escaping.FirstToEscape(MemoryMarshal.Cast<TUnit, char>(value))
            : _escaping.FirstToEscape(MemoryMarshal.Cast<TUnit, byte>(value));
        if (first < 0 && carry == 0)
        {
            if (typeof(TUnit) == typeof(char))
            {
                ReadOnlySpan<char> utf16 = MemoryMarshal.Cast<TUnit, char>(value);
                Reserve(utf16.Length * 3);
                _w.Pos += Transcode(utf16, _w.Buffer.AsSpan(_w.Pos));
            }
            else
            {
                ReadOnlySpan<byte> utf8 = MemoryMarshal.Cast<TUnit, byte>(value);
                Reserve(utf8.Length);
                utf8.CopyTo(_w.Buffer.AsSpan(_w.Pos));
                _w.Pos += utf8.Length;
            }

            return;
        }

        ReadOnlySpan<TUnit> whole = value[..^carry];
        if (!whole.IsEmpty)
        {
            using EscapedText escaped = Escape(whole, 0);
            Reserve(escaped.Cost);
            escaped.Utf8.CopyTo(_w.Buffer.AsSpan(_w.Pos));
            _w.Pos += escaped.Utf8.Length;
        }

        if (carry != 0)
        {
            MemoryMarshal.AsBytes(value[^carry..]).CopyTo(_side!.Carry);
            _side.CarryLength = (byte)(carry * Unsafe.SizeOf<TUnit>());
        }
    }

    /// <summary>How many units at the end of <paramref name="value"/> begin a character the text does not finish.</summary>
    private static int IncompleteAtEnd<TUnit>(ReadOnlySpan<TUnit> value)
        where TUnit : unmanaged
    {
        if (typeof(TUnit) == typeof(char))
        {
            return char.IsHighSurrogate(MemoryMarshal.Cast<TUnit, char>(value)[^1]) ? 1 : 0;
        }

        // Any byte that is not a continuation byte starts a character; only the last such, within a character's
        // length of the end, can be unfinished.
        ReadOnlySpan<byte> utf8 = MemoryMarshal.Cast<TUnit, byte>(value);
        for (int start = utf8.Length - 1; start >= Math.Max(0, utf8.Length - 4); start--)
        {
            if ((utf8[start] & 0xC0) != 0x80)
            {
                return Rune.DecodeFromUtf8(utf8[start..], out _, out _) == OperationStatus.NeedMoreData ? utf8.Length - start : 0;
            }
        }

        return 0;
    }

    /// <summary>Base64 of whole 3-byte groups; unless final, the 1 or 2 bytes left over are carried.</summary>
    private void WriteBase64Segment(ReadOnlySpan<byte> bytes, bool isFinalSegment)
    {
        int rest;
        if (!isFinalSegment && (rest = bytes.Length % 3) != 0)
        {
            bytes[^rest..].CopyTo(_side!.Carry);
            _side.CarryLength = (byte)rest;
            bytes = bytes[..^rest];
        }

        if (!bytes.IsEmpty)
        {
            Reserve(Base64.GetMaxEncodedToUtf8Length(bytes.Length));
            Base64.EncodeToUtf8(bytes, _w.Buffer.AsSpan(_w.Pos), out _, out int written);
            _w.Pos += written;
        }
    }

    /// <summary>As many units of <paramref name="left"/> then <paramref name="right"/> as fit in <paramref name="destination"/>.</summary>
    private static int Join<T>(ReadOnlySpan<T> left, ReadOnlySpan<T> right, Span<T> destination)
    {
        int fromLeft = Math.Min(left.Length, destination.Length);
        left[..fromLeft].CopyTo(destination);
        int fromRight = Math.Min(right.Length, destination.Length - fromLeft);
        right[..fromRight].CopyTo(destination[fromLeft..]);
        return fromLeft + fromRight;
    }

    [DoesNotReturn, MethodImpl(MethodImplOptions.NoInlining)]
    private void ThrowCannotBeginSegment(StringSegment kind)
    {
        if (OpenSegment is var open && open != StringSegment.None)
        {
            JsonThrow.InvalidOperation(
                $"Mixing UTF encodings in a single multi-segment JSON string is not supported. The previous segment's encoding was '{Name(open)}' and the current segment's encoding is '{Name(kind)}'.");
        }

        ThrowCannotWriteValue();

        static string Name(StringSegment segment) => segment switch
        {
            StringSegment.Utf8 => "UTF-8",
            StringSegment.Utf16 => "UTF-16",
            _ => "Base64",
        };
    }

    [DoesNotReturn, MethodImpl(MethodImplOptions.NoInlining)]
    private static void ThrowWithinString() => JsonThrow.InvalidOperation(WithinStringMessage);
}
