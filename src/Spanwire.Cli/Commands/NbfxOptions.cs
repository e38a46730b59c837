using System.Xml;
using Spanwire.BinaryXml;

namespace Spanwire.Cli.Commands;

/// <summary>What the nbfx verbs share: the --dictionary option and reading the whole input.</summary>
internal static class NbfxOptions
{
    public const string DictionaryHelp = "  --dictionary D   soap (the MC-NBFS SOAP dictionary, the default) or none";

    public const string SessionHelp = "  --session        the input starts with an MC-NBFSE session string table";

    /// <summary>
    /// With --session, reads the MC-NBFSE string table at the start of <paramref name="input"/> into a new session;
    /// otherwise null. <paramref name="tableLength"/> is the table's size in bytes (0 without one).
    /// </summary>
    public static XmlBinaryReaderSession? ReadSession(byte[] input, bool withSession, out int tableLength, out int strings)
    {
        tableLength = 0;
        strings = 0;
        if (!withSession)
        {
            return null;
        }

        var session = new XmlBinaryReaderSession();
        tableLength = NbfxSessionTable.Read(input, session, ref strings, XmlDictionaryReaderQuotas.Max);
        return session;
    }

    /// <summary>
    /// Reads the MC-NBFSE string table at the start of <paramref name="input"/>, and no further: the document follows.
    /// The table is taken in pieces as its bytes arrive, so a size the input does not hold costs no more than the input.
    /// </summary>
    public static XmlBinaryReaderSession ReadSession(Stream input)
    {
        var table = new MemoryStream();
        int size = 0;
        for (int shift = 0; shift < 35; shift += 7)
        {
            int b = input.ReadByte();
            if (b < 0)
            {
                break;
            }

            table.WriteByte((byte)b);
            size |= (b & 0x7F) << shift;
            if ((b & 0x80) == 0)
            {
                break;
            }
        }

        byte[] piece = new byte[Math.Min(Math.Max(size, 0), 1 << 16)];
        for (long left = size; left > 0;)
        {
            int read = input.Read(piece, 0, (int)Math.Min(left, piece.Length));
            if (read == 0)
            {
                break;
            }

            table.Write(piece, 0, read);
            left -= read;
        }

        var session = new XmlBinaryReaderSession();
        int strings = 0;
        NbfxSessionTable.Read(table.GetBuffer().AsSpan(0, (int)table.Length), session, ref strings, XmlDictionaryReaderQuotas.Max);
        return session;
    }

    public static IXmlDictionary? Dictionary(ArgumentReader arguments) => arguments.Option("--dictionary") switch
    {
        null or "soap" => BinaryXml.Nbfx.SoapDictionary,
        "none" => null,
        string other => throw new CliException($"--dictionary takes 'soap' or 'none'; got '{other}'"),
    };

    public static byte[] ReadAll(string? path)
    {
        using Stream source = Input.Open(path);
        using var buffer = new MemoryStream();
        source.CopyTo(buffer);
        return buffer.ToArray();
    }
}
