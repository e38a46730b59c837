using System.Xml;
using Spanwire.BinaryXml;

namespace Spanwire.Cli.Commands;

/// <summary>What the nbfx verbs share: the --dictionary option and reading the whole input.</summary>
internal static class NbfxOptions
{
    public const string DictionaryHelp = "  --dictionary D   soap (the MC-NBFS SOAP dictionary, the default) or none";

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
