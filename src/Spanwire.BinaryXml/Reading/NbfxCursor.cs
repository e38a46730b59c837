using System.Buffers;
using System.Diagnostics.CodeAnalysis;
using System.Globalization;
using System.Runtime.CompilerServices;
using System.Xml;

namespace Spanwire.BinaryXml.Reading;

/// <summary>
/// Everything <see cref="NbfxReader"/> knows between reads, without spans, so that a class (the XmlDictionaryReader
/// drop-in) can hold it too. Over a sequence, <see cref="Window"/> is the segment being read, or a pooled copy of one
/// record that straddles segments; over a span the caller passes the span to every call.
/// </summary>
internal partial struct NbfxCursor
{
    // Set once per input (Reset): not readonly, so that the drop-in reader starts its cursor over in place rather than
    // making a new one and copying it into its field.
    private ReadOnlySequence<byte> _sequence;
    private bool _isSequence; // the window moves: over a sequence, or over a stream (_stream set)
    private Stream? _stream;
    private byte[]? _block; // over a stream, the pooled block the window is read into
    private long _length;
    private SequencePosition _next;
    private byte[]? _scratch;
    private long _windowOffset;
    private int _pos;

    private IXmlDictionary? _dictionary;
    private XmlBinaryReaderSession? _session;
    private int _maxDepth;
    private int _maxStringContentLength;
    private int _maxArrayLength;
    private int _maxNameLength;

    // As the in-box reader over a stream: a text longer than MaxBytesPerRead − 5 is handed out in pieces (see SplitText).
    private int _splitTextAbove;
    private int _splitStart, _splitLength; // the text not handed out yet, in the window
    private bool _splitWithEnd;

    private int _depth;
    private bool _inStartTag;
    private bool _pendingEnd;
    private ArrayPhase _arrayPhase;
    private ListPhase _list;
    private int _arrayRemaining;
    private int _arrayItemSize;

    /// <summary>The segment (or scratch copy) being read, over a sequence.</summary>
    public ReadOnlyMemory<byte> Window;

    public NbfxTokenType Token;
    public byte Record;
    public int TokenDepth;
    public long TokenOffset;
    public bool IsArrayElement;

    /// <summary>−1 for no letter prefix, else 0..25 for 'a'..'z'.</summary>
    public int PrefixLetter;
    public int PrefixStart;
    public int PrefixLength;
    public int NameStart;
    public int NameLength;
    public XmlDictionaryString? NameString;

    public NbfxValueType ValueType;
    public int ValueStart;
    public int ValueLength;
    public long ValueOffset;
    public XmlDictionaryString? ValueString;
    public int QNamePrefixLetter;

    public NbfxValueType ArrayType;
    public int ArrayCount;

    private enum ArrayPhase : byte { None, Attributes }

    private enum ListPhase : byte { None, Content, Attribute }

    /// <param name="length">The input's length in bytes.</param>
    /// <param name="dictionary">The static dictionary, for even dictionary ids.</param>
    /// <param name="session">The session's strings, for odd dictionary ids.</param>
    /// <param name="quotas">The limits; null for the in-box defaults.</param>
    /// <param name="applyContentQuotas">
    /// False to leave MaxStringContentLength, MaxArrayLength and MaxNameTableCharCount to the caller: the drop-in reader
    /// applies them where the in-box reader does (content read as a string, base64 read whole, arrays made, names
    /// added to its name table), not to every record it passes. Every length is still checked against the input.
    /// </param>
    public NbfxCursor(long length, IXmlDictionary? dictionary, XmlBinaryReaderSession? session, XmlDictionaryReaderQuotas? quotas, bool applyContentQuotas = true) =>
        Reset(length, dictionary, session, quotas, applyContentQuotas);

    /// <inheritdoc cref="Reset(ReadOnlySequence{byte}, IXmlDictionary?, XmlBinaryReaderSession?, XmlDictionaryReaderQuotas?, bool)"/>
    public NbfxCursor(ReadOnlySequence<byte> sequence, IXmlDictionary? dictionary, XmlBinaryReaderSession? session, XmlDictionaryReaderQuotas? quotas, bool applyContentQuotas = true) =>
        Reset(sequence, dictionary, session, quotas, applyContentQuotas);

    /// <summary>Starts over, in place, as a new cursor over input of <paramref name="length"/> bytes held in one span.</summary>
    /// <param name="length">The input's length in bytes.</param>
    /// <param name="dictionary">The static dictionary, for even dictionary ids.</param>
    /// <param name="session">The session's strings, for odd dictionary ids.</param>
    /// <param name="quotas">The limits; null for the in-box defaults.</param>
    /// <param name="applyContentQuotas">As for the constructor.</param>
    public void Reset(long length, IXmlDictionary? dictionary, XmlBinaryReaderSession? session, XmlDictionaryReaderQuotas? quotas, bool applyContentQuotas = true)
    {
        this = default;
        _length = length;
        _dictionary = dictionary;
        _session = session;
        quotas ??= DefaultQuotas;
        _maxDepth = quotas.MaxDepth;
        _maxStringContentLength = applyContentQuotas ? quotas.MaxStringContentLength : int.MaxValue;
        _maxArrayLength = applyContentQuotas ? quotas.MaxArrayLength : int.MaxValue;
        _maxNameLength = applyContentQuotas ? quotas.MaxNameTableCharCount : int.MaxValue;
        _splitTextAbove = int.MaxValue;
        PrefixLetter = -1;
    }

    /// <summary>
    /// Hands content text out in pieces as the in-box reader does over a stream: a Chars, UnicodeChars or Bytes text
    /// longer than MaxBytesPerRead − 5 is a text node of about that size, and the rest the next, and so on, the last
    /// one ending the element if the record does. Content reads join the pieces again.
    /// </summary>
    /// <param name="maxBytesPerRead">The quota the pieces are cut by.</param>
    public void SplitTextAsStreamed(int maxBytesPerRead) => _splitTextAbove = Math.Max(maxBytesPerRead - 5, 0);

    /// <summary>Whether the current value is a text that <see cref="SplitTextAsStreamed"/> hands out in pieces.</summary>
    private readonly bool IsTextToSplit => ValueLength > _splitTextAbove && IsCharsOrBytesText;

    /// <summary>The current text is longer than a piece: it keeps its first piece, and the rest waits for the next Read.</summary>
    private void StartSplit(ReadOnlySpan<byte> w)
    {
        _splitStart = ValueStart;
        _splitLength = ValueLength;
        _splitWithEnd = _pendingEnd;
        NextPiece(w);
    }

    /// <summary>
    /// Makes the next piece of the text being split the current value, as the in-box reader cuts it: UTF-8 before the
    /// last character that fits (never inside one), UTF-16 an even count not ending in a high surrogate, bytes a
    /// multiple of 3; the last piece is what is left, and ends the element if the record did.
    /// </summary>
    private void NextPiece(ReadOnlySpan<byte> w)
    {
        int left = _splitLength;
        int piece = left;
        if (left > _splitTextAbove)
        {
            int most = Math.Max(_splitTextAbove - 5, 0);
            switch (ValueType)
            {
                case NbfxValueType.Chars:
                    int i = _splitStart + most - 1;
                    while (i >= _splitStart && (w[i] & 0xC0) == 0x80)
                    {
                        i--;
                    }

                    piece = i - _splitStart; // the in-box reader leaves the character it stopped on for the next piece
                    break;
                case NbfxValueType.UnicodeChars:
                    piece = most & ~1;
                    if (piece >= 2 && char.IsHighSurrogate((char)System.Buffers.Binary.BinaryPrimitives.ReadUInt16LittleEndian(w[(_splitStart + piece - 2)..])))
                    {
                        piece -= 2;
                    }

                    break;
                default:
                    piece = _splitTextAbove > 3 ? _splitTextAbove - (_splitTextAbove % 3) : _splitTextAbove;
                    break;
            }

            if (piece <= 0)
            {
                piece = left; // a quota too small to cut by: the text whole
            }
        }

        ValueStart = _splitStart;
        ValueLength = piece;
        ValueOffset = _windowOffset + _splitStart;
        _splitStart += piece;
        _splitLength = left - piece;
        _pendingEnd = _splitLength == 0 && _splitWithEnd;
    }

    /// <summary>Starts over, in place, as a new cursor over <paramref name="sequence"/>.</summary>
    /// <param name="sequence">The input, read segment by segment.</param>
    /// <param name="dictionary">The static dictionary, for even dictionary ids.</param>
    /// <param name="session">The session's strings, for odd dictionary ids.</param>
    /// <param name="quotas">The limits; null for the in-box defaults.</param>
    /// <param name="applyContentQuotas">As for the constructor.</param>
    public void Reset(ReadOnlySequence<byte> sequence, IXmlDictionary? dictionary, XmlBinaryReaderSession? session, XmlDictionaryReaderQuotas? quotas, bool applyContentQuotas = true)
    {
        Reset(sequence.Length, dictionary, session, quotas, applyContentQuotas);
        _sequence = sequence;
        _isSequence = true;
        _next = sequence.Start;
    }

    /// <summary>
    /// Starts over, in place, as a new cursor over what <paramref name="stream"/> has left, read block by block as the
    /// records need it: memory holds one block and the largest record that straddles two, never the document. The
    /// cursor does not close the stream.
    /// </summary>
    /// <param name="stream">The input, read forward only.</param>
    /// <param name="dictionary">The static dictionary, for even dictionary ids.</param>
    /// <param name="session">The session's strings, for odd dictionary ids.</param>
    /// <param name="quotas">The limits; null for the in-box defaults.</param>
    /// <param name="applyContentQuotas">As for the constructor.</param>
    /// <param name="block">
    /// A pooled block of <see cref="StreamBlockSize"/> bytes or more, which the cursor takes (and returns when
    /// disposed), holding the stream's first <paramref name="filled"/> bytes.
    /// </param>
    /// <param name="filled">How many bytes of <paramref name="block"/> the stream has filled.</param>
    public void Reset(Stream stream, byte[] block, int filled, IXmlDictionary? dictionary, XmlBinaryReaderSession? session, XmlDictionaryReaderQuotas? quotas, bool applyContentQuotas = true)
    {
        // The length is not known until the stream ends: every length check against it passes until then, and a
        // record that claims more than the stream holds fails where its bytes run out (Gather).
        Reset(long.MaxValue, dictionary, session, quotas, applyContentQuotas);
        _stream = stream;
        _isSequence = true;
        _block = block;
        Window = block.AsMemory(0, filled);
    }

    /// <summary>
    /// Reads the start of <paramref name="stream"/> into <paramref name="buffer"/> without waiting for more than the
    /// stream has: a seekable stream whose rest fits is read whole (<paramref name="whole"/>), any other with one read,
    /// as the in-box reader reads no further than it needs (a stream that is a connection may have nothing more yet).
    /// </summary>
    /// <returns>The bytes read.</returns>
    public static int ReadFirstBlock(Stream stream, byte[] buffer, out bool whole)
    {
        if (stream.CanSeek && stream.Length - stream.Position is var left && left <= buffer.Length)
        {
            int filled = 0;
            int read;
            while (filled < left && (read = stream.Read(buffer, filled, (int)left - filled)) > 0)
            {
                filled += read;
            }

            whole = true;
            return filled;
        }

        int first = stream.Read(buffer, 0, buffer.Length);
        whole = first == 0;
        return first;
    }

    /// <summary>The bytes a stream's block holds: pooled, and below the large object heap threshold.</summary>
    internal const int StreamBlockSize = 32 * 1024;

    /// <summary>The in-box defaults: depth 32, strings 8192 chars, arrays 16384 items, names 16384 chars.</summary>
    public static readonly XmlDictionaryReaderQuotas DefaultQuotas = new();

    public readonly long Position => _windowOffset + _pos;

    public readonly int Depth => _depth;

    /// <summary>True right after a text record that also ends its element (a WithEndElement record): the next token is that end.</summary>
    public readonly bool TextEndsElement => _pendingEnd;

    /// <summary>The items of the current array not yet read.</summary>
    public readonly int ArrayRemaining => _arrayRemaining;

    /// <summary>Returns the pooled scratch buffer and stream block, if any. The window is empty after.</summary>
    public void Dispose()
    {
        byte[]? scratch = _scratch;
        byte[]? block = _block;
        _scratch = _block = null;
        Window = default;
        if (scratch is not null)
        {
            ArrayPool<byte>.Shared.Return(scratch);
        }

        if (block is not null)
        {
            ArrayPool<byte>.Shared.Return(block);
        }
    }

    /// <summary>Moves to the next token; false at the end of the input.</summary>
    public bool Read(ref ReadOnlySpan<byte> window)
    {
        if (_splitLength > 0)
        {
            // The next piece of a text handed out in pieces (SplitTextAsStreamed): still in the window.
            NextPiece(window);
            Token = NbfxTokenType.Text;
            TokenDepth = _depth;
            TokenOffset = ValueOffset; // each piece a node of its own
            return true;
        }

        if (_pendingEnd)
        {
            _pendingEnd = false;
            _depth--;
            Token = NbfxTokenType.EndElement;
            TokenDepth = _depth;
            return true;
        }

        if (_arrayRemaining > 0)
        {
            Skip(ref window, (long)_arrayRemaining * _arrayItemSize);
            _arrayRemaining = 0;
        }

        while (true)
        {
            if (_pos >= window.Length && !NextWindow(ref window))
            {
                return AtEnd();
            }

            int consumed = ParseRecord(window, out int needed);
            if (consumed > 0)
            {
                _pos += consumed;
                return true;
            }

            Gather(ref window, needed);
        }
    }

    /// <summary>
    /// What follows the start tag or attribute just read, moving to the next segment when the window is used up. Only
    /// between records, with no array or list under way.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public NbfxFollowing Following(ref ReadOnlySpan<byte> window) =>
        _pos < window.Length || NextWindow(ref window)
            ? IsAttributeRecord(window[_pos]) ? NbfxFollowing.Attribute : NbfxFollowing.Content
            : NbfxFollowing.End;

    /// <summary>The end element that the current text record carried, taken by a typed read that consumed the text.</summary>
    public void TakePendingEnd()
    {
        _pendingEnd = false;
        _depth--;
    }

    /// <summary>
    /// True when the current text gives characters or bytes (Chars, UnicodeChars, Bytes): outside the root element
    /// the in-box reader refuses such text unless it is whitespace, and passes the typed records; over a stream it
    /// hands out only such text in pieces.
    /// </summary>
    public readonly bool IsCharsOrBytesText => ValueType is NbfxValueType.Chars or NbfxValueType.UnicodeChars or NbfxValueType.Bytes;

    private bool AtEnd()
    {
        if (_depth > 0 || _list != ListPhase.None)
        {
            ThrowFormat("the input ends inside an open element", _length);
        }

        Token = NbfxTokenType.None;
        return false;
    }

    /// <summary>Moves to the next non-empty segment once the window is used up; false at the end of the input.</summary>
    private bool NextWindow(ref ReadOnlySpan<byte> window)
    {
        if (!_isSequence || _windowOffset + window.Length >= _length)
        {
            return false;
        }

        if (_stream is not null)
        {
            return NextStreamBlock(ref window);
        }

        _windowOffset += window.Length;
        _pos = 0;
        while (_sequence.TryGet(ref _next, out ReadOnlyMemory<byte> memory))
        {
            if (!memory.IsEmpty)
            {
                Window = memory;
                window = memory.Span;
                return true;
            }
        }

        return false;
    }

    /// <summary>
    /// Reads the stream's next block into the pooled block (nothing refers to the one before: whatever outlives a
    /// record is copied by its reader); at the stream's end, its length becomes known and the answer is false.
    /// </summary>
    private bool NextStreamBlock(ref ReadOnlySpan<byte> window)
    {
        byte[] block = _block!;
        long end = _windowOffset + window.Length;
        int read = _stream!.Read(block, 0, block.Length);
        if (read == 0)
        {
            EndOfStream(end);
            return false;
        }

        _windowOffset = end;
        _pos = 0;
        Window = block.AsMemory(0, read);
        window = Window.Span;
        return true;
    }

    /// <summary>The stream has ended at <paramref name="length"/>: from here the cursor reads as over input of that length.</summary>
    private void EndOfStream(long length)
    {
        _length = length;
        _stream = null; // its owner closes it
    }

    /// <summary>
    /// The scratch buffer, of at least <paramref name="capacity"/> bytes, holding the window from the current position
    /// at its start (a bigger one rented, and the old one returned, after the copy: the window may be the old one).
    /// </summary>
    private byte[] ScratchHoldingRest(ReadOnlySpan<byte> window, int capacity)
    {
        byte[]? scratch = _scratch;
        if (scratch is null || scratch.Length < capacity)
        {
            byte[] bigger = ArrayPool<byte>.Shared.Rent(Math.Max(capacity, 256));
            window[_pos..].CopyTo(bigger);
            if (scratch is not null)
            {
                ArrayPool<byte>.Shared.Return(scratch);
            }

            _scratch = bigger;
            return bigger;
        }

        window[_pos..].CopyTo(scratch); // may overlap when the window is the scratch itself: CopyTo is a memmove
        return scratch;
    }

    /// <summary>
    /// Over a stream, copies the record that starts at the current position into the scratch buffer and reads from
    /// the stream until it holds <paramref name="needed"/> bytes. The buffer grows with the bytes that arrive, so a
    /// length the stream does not back allocates no more than twice what the stream held.
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void GatherFromStream(ref ReadOnlySpan<byte> window, int needed)
    {
        long start = _windowOffset + _pos;
        int have = window.Length - _pos;
        byte[] scratch = ScratchHoldingRest(window, have);
        while (have < needed)
        {
            if (have == scratch.Length)
            {
                byte[] bigger = ArrayPool<byte>.Shared.Rent((int)Math.Min(needed, 2L * scratch.Length));
                scratch.AsSpan(0, have).CopyTo(bigger);
                ArrayPool<byte>.Shared.Return(scratch);
                _scratch = scratch = bigger;
            }

            int read = _stream!.Read(scratch, have, Math.Min(needed, scratch.Length) - have);
            if (read == 0)
            {
                // The input's length is known now: the record is parsed again against it, and refused by the check
                // (and at the offset) that refuses it when the input is given whole.
                EndOfStream(start + have);
                break;
            }

            have += read;
        }

        _windowOffset = start;
        _pos = 0;
        Window = scratch.AsMemory(0, have);
        window = Window.Span;
    }

    /// <summary>
    /// Copies the record that starts at the current position and straddles segments into the scratch buffer, so it
    /// can be parsed in one piece. The copy is never larger than the input that is left.
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void Gather(ref ReadOnlySpan<byte> window, int needed)
    {
        if (_stream is not null)
        {
            GatherFromStream(ref window, needed);
            return;
        }

        long start = _windowOffset + _pos;
        long left = _length - start;
        if (!_isSequence || needed > left)
        {
            ThrowFormat("the record runs past the end of the input ({0} bytes needed, {1} left)", needed, left, start);
        }

        int have = window.Length - _pos;
        byte[] scratch = ScratchHoldingRest(window, needed);
        ReadOnlySequence<byte> rest = _sequence.Slice(_next, needed - have);
        rest.CopyTo(scratch.AsSpan(have));
        _next = rest.End;
        _windowOffset = start;
        _pos = 0;
        Window = scratch.AsMemory(0, needed);
        window = Window.Span;
    }

    /// <summary>Copies raw bytes at the current position (array values) into <paramref name="destination"/>, across segments.</summary>
    public void CopyTo(ref ReadOnlySpan<byte> window, scoped Span<byte> destination)
    {
        while (!destination.IsEmpty)
        {
            if (_pos >= window.Length && !NextWindow(ref window))
            {
                ThrowFormat("the array runs past the end of the input", Position);
            }

            int n = Math.Min(destination.Length, window.Length - _pos);
            window.Slice(_pos, n).CopyTo(destination);
            _pos += n;
            destination = destination[n..];
        }
    }

    private void Skip(ref ReadOnlySpan<byte> window, long count)
    {
        while (count > 0)
        {
            if (_pos >= window.Length && !NextWindow(ref window))
            {
                ThrowFormat("the array runs past the end of the input", Position);
            }

            int n = (int)Math.Min(count, window.Length - _pos);
            _pos += n;
            count -= n;
        }
    }

    /// <summary>The current value, whose payload is in <paramref name="window"/>.</summary>
    public readonly NbfxValue GetValue(ReadOnlySpan<byte> window) =>
        new(ValueType, window.Slice(ValueStart, ValueLength), ValueString, QNamePrefixLetter, ValueOffset);

    /// <summary>Rejects the fixed-size payloads not every bit pattern of which is a value: decimal flags and DateTime ticks.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static void CheckFixedSizeValue(NbfxValueType type, ReadOnlySpan<byte> payload, long at)
    {
        // Only two types need a look; the check stays out of the inlined hot path.
        if (type is NbfxValueType.Decimal or NbfxValueType.DateTime)
        {
            CheckDecimalOrDateTime(type, payload, at);
        }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void CheckDecimalOrDateTime(NbfxValueType type, ReadOnlySpan<byte> payload, long at)
    {
        if (type == NbfxValueType.Decimal)
        {
            if (!NbfxPrimitives.IsValidDecimal(payload))
            {
                ThrowStricter("a decimal with an invalid scale or flags", at);
            }
        }
        else if (!NbfxPrimitives.IsValidDateTimeBinary(System.Buffers.Binary.BinaryPrimitives.ReadInt64LittleEndian(payload)))
        {
            ThrowStricter("a DateTime out of range", at);
        }
    }

    /// <summary>Counts <paramref name="items"/> array items as read (after the caller copied their bytes).</summary>
    public void ConsumeArrayItems(int items) => _arrayRemaining -= items;

    public readonly int ArrayItemSize => _arrayItemSize;

    [DoesNotReturn]
    [MethodImpl(MethodImplOptions.NoInlining)]
    public static void ThrowFormat(string message, long offset) => throw new NbfxFormatException(message, offset);

    /// <summary>A refusal the in-box reader makes only later, if at all (see <see cref="NbfxFormatException.CheckedLaterInBox"/>).</summary>
    [DoesNotReturn]
    [MethodImpl(MethodImplOptions.NoInlining)]
    public static void ThrowStricter(string message, long offset) => throw new NbfxFormatException(message, offset) { CheckedLaterInBox = true };

    // Messages with values take a composite format, not an interpolated string: an interpolation handler is a local
    // of the calling method, and its frame would be cleared on every call of the hot path that holds the throw.
    [DoesNotReturn]
    [MethodImpl(MethodImplOptions.NoInlining)]
    public static void ThrowFormat(string format, long arg0, long offset) =>
        throw new NbfxFormatException(string.Format(CultureInfo.InvariantCulture, format, arg0), offset);

    [DoesNotReturn]
    [MethodImpl(MethodImplOptions.NoInlining)]
    public static void ThrowFormat(string format, long arg0, long arg1, long offset) =>
        throw new NbfxFormatException(string.Format(CultureInfo.InvariantCulture, format, arg0, arg1), offset);

    [DoesNotReturn]
    [MethodImpl(MethodImplOptions.NoInlining)]
    public static void ThrowFormat(string format, string arg0, long offset) =>
        throw new NbfxFormatException(string.Format(CultureInfo.InvariantCulture, format, arg0), offset);
}

/// <summary>What follows a start tag's element record or one of its attributes.</summary>
internal enum NbfxFollowing : byte
{
    /// <summary>Content, an end element, or an array's values: the start tag is whole.</summary>
    Content,

    /// <summary>An attribute or namespace declaration of the same start tag.</summary>
    Attribute,

    /// <summary>The end of the input: the in-box reader looks past a start tag, so input that ends there is refused on the element.</summary>
    End,
}
