using System.Buffers;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Text;
using System.Text.Unicode;
using System.Xml;

namespace Spanwire.BinaryXml;

public sealed partial class NbfxWriter
{
    /// <summary>Strings up to this many chars are transcoded in one reservation, as the in-box writer does (255 / 3).</summary>
    private const int ShortTextChars = 85;
    /// <summary>Names shorter than this are transcoded in one reservation (128 / 3).</summary>
    private const int ShortNameChars = 42;
    private const int Utf8ChunkChars = StagingLength / 3;
    private const int Utf16ChunkChars = StagingLength / 2;
    /// <summary>Above this many payload bytes, text goes out in pieces rather than one reservation.</summary>
    private const int DirectPayloadLimit = 1 << 16;

    // The in-box writer's encoder: throws on lone surrogates, and that exception is what callers must see.
    private static readonly UTF8Encoding s_strictUtf8 = new(encoderShouldEmitUTF8Identifier: false, throwOnInvalidBytes: true);

    /// <summary>
    /// Writes a string as text: Empty for "", Zero/One for "0"/"1", otherwise Chars (UTF-8) unless UTF-16 is smaller
    /// (UnicodeChars), with the 8/16/32-bit length form the length needs. Lone surrogates throw
    /// <see cref="EncoderFallbackException"/>, as in-box.
    /// </summary>
    /// <param name="value">The text.</param>
    public void WriteString(string value)
    {
        ArgumentNullException.ThrowIfNull(value);
        WriteString(value.AsSpan());
    }

    /// <inheritdoc cref="WriteString(string)"/>
    public void WriteString(ReadOnlySpan<char> value)
    {
        int count = value.Length;
        if (count <= ShortTextChars)
        {
            if (count == 0)
            {
                WriteTextNode(NbfxRecord.EmptyText);
                return;
            }

            if (count == 1 && (value[0] == '0' || value[0] == '1'))
            {
                WriteTextNode(value[0] == '0' ? NbfxRecord.ZeroText : NbfxRecord.OneText);
                return;
            }

            WriteShortText(value);
            return;
        }

        WriteLongText(value);
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void WriteShortText(ReadOnlySpan<char> value)
    {
        int count = value.Length;
        int request = 2 + count * 3;
        Ensure(request);
        Span<byte> destination = _w.Buffer.AsSpan(_w.Pos + 2, count * 3);
        int length = EncodeUtf8(value, destination);
        byte record = NbfxRecord.Chars8Text;
        if (length / 2 > count)
        {
            record = NbfxRecord.UnicodeChars8Text;
            length = count * 2;
            MemoryMarshal.AsBytes(value).CopyTo(destination);
            if (!BitConverter.IsLittleEndian)
            {
                SwapUtf16(destination[..length]);
            }
        }

        Stage(request, 2 + length);
        _textRecord = _w.Pos;
        _w.Buffer[_w.Pos] = record;
        _w.Buffer[_w.Pos + 1] = (byte)length;
        _w.Pos += 2 + length;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void WriteLongText(ReadOnlySpan<char> value)
    {
        int count = value.Length;
        if (count <= DirectPayloadLimit && TryWriteAsciiText(value))
        {
            return;
        }

        int byteCount = s_strictUtf8.GetByteCount(value);
        if (byteCount / 2 > count)
        {
            WriteTextHeader(NbfxRecord.UnicodeChars8Text, count * 2);
            StageChunks(value, Utf16ChunkChars, ascii: false, utf16: true, count * 2);
            WriteUtf16Payload(value);
        }
        else
        {
            WriteTextHeader(NbfxRecord.Chars8Text, byteCount);
            StageChunks(value, Utf8ChunkChars, ascii: byteCount == count, utf16: false, byteCount);
            WriteUtf8Payload(value, byteCount);
        }
    }

    /// <summary>
    /// Long text that is all ASCII, narrowed once straight into its place after the header its length gives: no
    /// separate count of its UTF-8 bytes. False, with nothing written, at the first char that is not ASCII.
    /// </summary>
    private bool TryWriteAsciiText(ReadOnlySpan<char> value)
    {
        int count = value.Length;
        int header = TextHeaderLength(count);
        Ensure(header + count);
        if (Ascii.FromUtf16(value, _w.Buffer.AsSpan(_w.Pos + header, count), out _) != OperationStatus.Done)
        {
            return false; // the bytes narrowed so far lie past Pos, where the general path writes over them
        }

        WriteTextHeader(NbfxRecord.Chars8Text, count); // room ensured above, so the header lands where it was assumed
        StageChunks(value, Utf8ChunkChars, ascii: true, utf16: false, count);
        _w.Pos += count;
        return true;
    }

    /// <summary>The bytes of a length-prefixed text record's header: the record and the smallest length form for <paramref name="length"/>.</summary>
    private static int TextHeaderLength(int length) => length < 0x100 ? 2 : length < 0x10000 ? 3 : 5;

    /// <summary>The header of a length-prefixed text record (Chars, Bytes, UnicodeChars) with the smallest length form.</summary>
    private void WriteTextHeader(byte record8, int length)
    {
        Ensure(5);
        int header = TextHeaderLength(length);
        Span<byte> span = _w.Buffer.AsSpan(_w.Pos, 5);
        switch (header)
        {
            case 2:
                span[0] = record8;
                span[1] = (byte)length;
                break;
            case 3:
                span[0] = (byte)(record8 + 2);
                System.Buffers.Binary.BinaryPrimitives.WriteUInt16LittleEndian(span[1..], (ushort)length);
                break;
            default:
                span[0] = (byte)(record8 + 4);
                System.Buffers.Binary.BinaryPrimitives.WriteInt32LittleEndian(span[1..], length);
                break;
        }

        Stage(header, header); // the installed writer asks for exactly the header it writes
        _textRecord = _w.Pos;
        _w.Pos += header;
    }

    /// <summary>
    /// Models the in-box writer's chunked copy of long text (170 chars as UTF-8, 256 as UTF-16, never splitting a
    /// pair), given the payload's <paramref name="totalBytes"/>: the last chunk's bytes are what the others leave, so
    /// text of one chunk is not counted again.
    /// </summary>
    private void StageChunks(ReadOnlySpan<char> chars, int chunkChars, bool ascii, bool utf16, int totalBytes)
    {
        int bytesPerChar = utf16 ? 2 : 3;
        while (chars.Length > chunkChars)
        {
            int size = chunkChars;
            if (char.IsHighSurrogate(chars[size - 1]))
            {
                size--;
            }

            int bytes = utf16 ? size * 2 : ascii ? size : Encoding.UTF8.GetByteCount(chars[..size]);
            Stage(size * bytesPerChar, bytes);
            totalBytes -= bytes;
            chars = chars[size..];
        }

        if (chars.Length > 0)
        {
            Stage(chars.Length * bytesPerChar, totalBytes);
        }
    }

    private void WriteUtf8Payload(ReadOnlySpan<char> value, int byteCount)
    {
        if (byteCount <= DirectPayloadLimit)
        {
            Ensure(byteCount);
            _w.Pos += EncodeUtf8(value, _w.Buffer.AsSpan(_w.Pos, byteCount));
            return;
        }

        const int Piece = 8192;
        while (value.Length > 0)
        {
            int size = Math.Min(Piece, value.Length);
            if (size < value.Length && char.IsHighSurrogate(value[size - 1]))
            {
                size--;
            }

            Ensure(size * 3);
            _w.Pos += EncodeUtf8(value[..size], _w.Buffer.AsSpan(_w.Pos, size * 3));
            value = value[size..];
        }
    }

    private void WriteUtf16Payload(ReadOnlySpan<char> value)
    {
        ReadOnlySpan<byte> bytes = MemoryMarshal.AsBytes(value);
        while (bytes.Length > 0)
        {
            int size = Math.Min(bytes.Length, DirectPayloadLimit);
            Ensure(size);
            Span<byte> destination = _w.Buffer.AsSpan(_w.Pos, size);
            bytes[..size].CopyTo(destination);
            if (!BitConverter.IsLittleEndian)
            {
                SwapUtf16(destination);
            }

            _w.Pos += size;
            bytes = bytes[size..];
        }
    }

    /// <summary>
    /// Transcodes to UTF-8; a lone surrogate throws the in-box writer's exception. <paramref name="destination"/> has
    /// room for at least one byte per char.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static int EncodeUtf8(ReadOnlySpan<char> value, Span<byte> destination)
    {
        // Most text is ASCII, and narrowing it costs less than the transcoder's setup for short strings; the
        // transcoder takes over at the first char that is not ASCII.
        if (Ascii.FromUtf16(value, destination, out int narrowed) == OperationStatus.Done)
        {
            return narrowed;
        }

        OperationStatus status = Utf8.FromUtf16(value[narrowed..], destination[narrowed..], out _, out int written, replaceInvalidSequences: false);
        if (status != OperationStatus.Done)
        {
            ThrowEncoding(value, destination);
        }

        return narrowed + written;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void ThrowEncoding(ReadOnlySpan<char> value, Span<byte> destination)
    {
        s_strictUtf8.GetBytes(value, destination); // throws EncoderFallbackException with the in-box message
        throw new InvalidOperationException("The text could not be encoded as UTF-8.");
    }

    private static void SwapUtf16(Span<byte> bytes)
    {
        Span<ushort> units = MemoryMarshal.Cast<byte, ushort>(bytes);
        System.Buffers.Binary.BinaryPrimitives.ReverseEndianness(units, units);
    }

    /// <summary>Writes a name: MB31 byte length, then UTF-8.</summary>
    private void WriteName(string name)
    {
        int count = name.Length;
        if (count == 0)
        {
            WriteRawByte(0);
            return;
        }

        if (count < ShortNameChars)
        {
            int request = 1 + count * 3;
            Ensure(request);
            int length = EncodeUtf8(name, _w.Buffer.AsSpan(_w.Pos + 1, count * 3));
            Stage(request, 1 + length);
            _w.Buffer[_w.Pos] = (byte)length;
            _w.Pos += 1 + length;
            return;
        }

        WriteLongName(name);
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void WriteLongName(string name)
    {
        int byteCount = s_strictUtf8.GetByteCount(name);
        WriteMultiByteInt31(byteCount);
        StageChunks(name, Utf8ChunkChars, ascii: byteCount == name.Length, utf16: false, byteCount);
        WriteUtf8Payload(name, byteCount);
    }

    /// <summary>Writes chars as text, exactly as <see cref="WriteString(ReadOnlySpan{char})"/>.</summary>
    /// <param name="buffer">The characters.</param>
    /// <param name="index">Where the characters start in <paramref name="buffer"/>.</param>
    /// <param name="count">How many characters to write.</param>
    public void WriteChars(char[] buffer, int index, int count) => WriteString(buffer.AsSpan(index, count));

    /// <summary>Writes a dictionary string as a Dictionary text record when it is in the dictionary or session, as a string otherwise.</summary>
    /// <param name="value">The text.</param>
    public void WriteString(XmlDictionaryString value)
    {
        ArgumentNullException.ThrowIfNull(value);
        if (TryGetKey(value, out int key))
        {
            WriteTextNode(NbfxRecord.DictionaryText);
            WriteMultiByteInt31(key);
        }
        else
        {
            WriteString(value.Value);
        }
    }

    /// <summary>
    /// Writes a qualified name as text: QNameDictionary for a one-letter prefix and a local name in the dictionary or
    /// session; otherwise the prefix, ":" and the local name as three texts, as in-box.
    /// </summary>
    /// <param name="prefix">The prefix, or null for none.</param>
    /// <param name="localName">The local name; a dictionary string is written as its id when the dictionary or the session holds it.</param>
    public void WriteQualifiedName(string prefix, XmlDictionaryString localName)
    {
        ArgumentNullException.ThrowIfNull(prefix);
        ArgumentNullException.ThrowIfNull(localName);
        if (prefix.Length == 0)
        {
            WriteString(localName);
        }
        else if (TryGetPrefixLetter(prefix, out int letter) && TryGetKey(localName, out int key))
        {
            WriteTextNode(NbfxRecord.QNameDictionaryText);
            WriteRawByte((byte)letter);
            WriteMultiByteInt31(key);
        }
        else
        {
            WriteString(prefix);
            WriteString(":");
            WriteString(localName);
        }
    }

    /// <summary>Writes bytes as a Bytes text record (base64 in the infoset); an empty span writes Empty.</summary>
    /// <param name="bytes">The bytes, written as a Base64 (bytes) record.</param>
    public void WriteBase64(ReadOnlySpan<byte> bytes) => WriteBase64(default, bytes);

    /// <summary>
    /// A Bytes record of <paramref name="trail"/> then <paramref name="bytes"/>, modelled as the in-box writer copies them
    /// (the drop-in carries up to two bytes between base64 calls, as XmlDictionaryWriter does).
    /// </summary>
    internal void WriteBase64(ReadOnlySpan<byte> trail, ReadOnlySpan<byte> bytes)
    {
        int length = trail.Length + bytes.Length;
        if (length == 0)
        {
            WriteTextNode(NbfxRecord.EmptyText);
            return;
        }

        WriteTextHeader(NbfxRecord.Bytes8Text, length);
        if (trail.Length > 0)
        {
            Stage(trail.Length, trail.Length);
        }

        if (bytes.Length < StagingLength)
        {
            Stage(bytes.Length, bytes.Length);
        }
        else
        {
            StageFlush();
        }

        WriteRawBytes(trail);
        WriteRawBytes(bytes);
    }

    /// <summary>Copies bytes into the output, in pieces when they are large; no effect on the staging model.</summary>
    private void WriteRawBytes(ReadOnlySpan<byte> bytes)
    {
        // Over a stream, a block the in-box writer would not stage goes to the stream as it is, as the in-box writer
        // sends it, instead of being copied through the chunk. Only once nothing written can still be patched.
        if (bytes.Length >= StagingLength && _textRecord < 0 && _output is IDirectWriteTarget direct)
        {
            int pending = _w.Pending;
            _w.Restart(direct.WriteDirect(pending, bytes)); // the output's emptied buffer, without asking for it
            _committed += pending + bytes.Length;
            return;
        }

        while (bytes.Length > 0)
        {
            int size = Math.Min(bytes.Length, DirectPayloadLimit);
            Ensure(size);
            bytes[..size].CopyTo(_w.Buffer.AsSpan(_w.Pos));
            _w.Pos += size;
            bytes = bytes[size..];
        }
    }
}
