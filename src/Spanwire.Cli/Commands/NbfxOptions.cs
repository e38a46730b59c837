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

    public static IXmlDictionary? Dictionary(ArgumentReader arguments) => arguments.Option("--dictionary") switch
    {
        null or "soap" => BinaryXml.Nbfx.SoapDictionary,
        "none" => null,
        string other => throw new CliException($"--dictionary takes 'soap' or 'none'; got '{other}'"),
    };

    public static byte[] ReadAll(string? path, Progress? progress = null)
    {
        using Stream source = Input.Open(path);
        using var buffer = new MemoryStream();
        if (progress is null)
        {
            source.CopyTo(buffer);
        }
        else
        {
            progress.Total = source.CanSeek ? source.Length : 0;
            Input.CopyTo(source, buffer, progress);
        }

        return buffer.ToArray();
    }
}
