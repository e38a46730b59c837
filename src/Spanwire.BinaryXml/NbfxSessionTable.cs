using System.Buffers;
using System.Text;
using System.Text.Unicode;
using System.Xml;
using Spanwire.BinaryXml.Reading;

namespace Spanwire.BinaryXml;

/// <summary>
/// MC-NBFSE in-band string tables: before each document of a session (<c>application/soap+msbinsession1</c>), the
/// strings the writer's session added for it: the MB31 byte size of what follows, then each string as a Name. The
/// first string of a session gets id 1, the next 3, and so on; ids persist for the rest of the session.
/// </summary>
/// <example><code>
/// var session = new NbfxWriterSession();
/// var body = new ArrayBufferWriter&lt;byte&gt;();
/// using (var writer = Nbfx.CreateWriter(body, Nbfx.SoapDictionary, session)) { ... }
/// NbfxSessionTable.Write(output, session.TakeNewStrings());  // the table, then
/// output.Write(body.WrittenSpan);                             // the document
/// </code></example>
public static class NbfxSessionTable
{
    /// <summary>Writes a table of <paramref name="strings"/> (no strings: the single byte 00).</summary>
    /// <param name="output">Where the bytes go.</param>
    /// <param name="strings">The session's new strings, in id order.</param>
    public static void Write(IBufferWriter<byte> output, IReadOnlyList<string> strings)
    {
        ArgumentNullException.ThrowIfNull(output);
        ArgumentNullException.ThrowIfNull(strings);
        long size = 0;
        foreach (string s in strings)
        {
            int length = Encoding.UTF8.GetByteCount(s);
            size += NbfxPrimitives.GetMultiByteInt31Length(length) + length;
        }

        if (size > int.MaxValue)
        {
            throw new ArgumentException("The strings take more than 2^31 − 1 bytes.", nameof(strings));
        }

        Span<byte> header = output.GetSpan(NbfxPrimitives.MaxMultiByteInt31Length);
        output.Advance(NbfxPrimitives.WriteMultiByteInt31(header, (int)size));
        foreach (string s in strings)
        {
            int length = Encoding.UTF8.GetByteCount(s);
            Span<byte> span = output.GetSpan(NbfxPrimitives.MaxMultiByteInt31Length + length);
            int n = NbfxPrimitives.WriteMultiByteInt31(span, length);
            n += Encoding.UTF8.GetBytes(s, span[n..]);
            output.Advance(n);
        }
    }

    /// <summary>
    /// Reads the table at the start of <paramref name="source"/> into <paramref name="session"/>, giving the strings the
    /// keys <paramref name="nextKey"/>, <paramref name="nextKey"/> + 1, … (the wire ids 2 × key + 1), and returns the
    /// bytes it took; the document follows. <paramref name="nextKey"/> is advanced for the session's next table.
    /// </summary>
    /// <exception cref="NbfxFormatException">The table is malformed or runs past the end of <paramref name="source"/>.</exception>
    /// <param name="source">The bytes to read.</param>
    /// <param name="session">The session the odd ids refer to, or null for none.</param>
    /// <param name="nextKey">The next session key; moved past the strings read.</param>
    /// <param name="quotas">Limits on what is read (depth, string and array lengths); null for the defaults.</param>
    /// <returns>How many bytes the table took.</returns>
    public static int Read(ReadOnlySpan<byte> source, XmlBinaryReaderSession session, ref int nextKey, XmlDictionaryReaderQuotas? quotas = null)
    {
        ArgumentNullException.ThrowIfNull(session);
        int maxName = (quotas ?? NbfxCursor.DefaultQuotas).MaxNameTableCharCount;
        OperationStatus status = NbfxPrimitives.TryReadMultiByteInt31(source, out int size, out int at);
        if (status != OperationStatus.Done)
        {
            NbfxCursor.ThrowFormat(status == OperationStatus.NeedMoreData ? "the session table's size runs past the end of the input" : "invalid MB31 session table size", 0);
        }

        if (size > source.Length - at)
        {
            NbfxCursor.ThrowFormat($"a session table of {size} bytes runs past the end of the input", 0);
        }

        int end = at + size;
        int key = nextKey;
        while (at < end)
        {
            status = NbfxPrimitives.TryReadMultiByteInt31(source[at..end], out int length, out int consumed);
            if (status != OperationStatus.Done || length > end - at - consumed)
            {
                NbfxCursor.ThrowFormat("a session string runs past the end of its table", at);
            }

            ReadOnlySpan<byte> utf8 = source.Slice(at + consumed, length);
            if (!Utf8.IsValid(utf8))
            {
                NbfxCursor.ThrowFormat("a session string that is not valid UTF-8", at);
            }

            if (length > maxName && Encoding.UTF8.GetCharCount(utf8) > maxName)
            {
                NbfxCursor.ThrowFormat($"a session string longer than the MaxNameTableCharCount quota ({maxName})", at);
            }

            if (key == int.MaxValue / 2)
            {
                NbfxCursor.ThrowFormat("the session has more strings than ids", at);
            }

            session.Add(key++, Encoding.UTF8.GetString(utf8));
            at += consumed + length;
        }

        nextKey = key;
        return end;
    }
}

