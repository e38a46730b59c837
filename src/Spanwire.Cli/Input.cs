using System.Security.Cryptography;

namespace Spanwire.Cli;

/// <summary>Opening the files a verb reads, with errors a person can act on.</summary>
internal static class Input
{
    /// <summary>The largest key file accepted: keys are small, and a huge one is almost surely the wrong file.</summary>
    private const long MaxKeyFileBytes = 1 << 20;

    /// <summary>Opens FILE, or standard input for "-" or no argument.</summary>
    public static Stream Open(string? path)
    {
        if (path is null or "-")
        {
            return Console.OpenStandardInput();
        }

        if (Directory.Exists(path))
        {
            throw new CliException($"cannot read '{path}': it is a directory");
        }

        try
        {
            return new FileStream(path, FileMode.Open, FileAccess.Read, FileShare.Read, bufferSize: 1, FileOptions.SequentialScan);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or ArgumentException or NotSupportedException)
        {
            throw new CliException($"cannot read '{path}': {Describe(ex)}");
        }
    }

    /// <summary>Copies <paramref name="source"/> to <paramref name="destination"/>, reporting the bytes copied.</summary>
    public static void CopyTo(Stream source, Stream destination, Progress progress)
    {
        byte[] buffer = System.Buffers.ArrayPool<byte>.Shared.Rent(81920);
        try
        {
            long copied = 0;
            int read;
            while ((read = source.Read(buffer, 0, buffer.Length)) > 0)
            {
                destination.Write(buffer, 0, read);
                copied += read;
                progress.Report(copied);
            }
        }
        finally
        {
            System.Buffers.ArrayPool<byte>.Shared.Return(buffer);
        }
    }

    /// <summary>Reads a key file whole: its raw bytes are the key. The caller clears the array when done.</summary>
    public static byte[] ReadKeyFile(string path)
    {
        if (Directory.Exists(path))
        {
            throw new CliException($"cannot read key file '{path}': it is a directory");
        }

        byte[] key;
        try
        {
            var info = new FileInfo(path);
            if (info.Exists && info.Length > MaxKeyFileBytes)
            {
                throw new CliException($"key file '{path}' has {info.Length} bytes; a key file holds at most {MaxKeyFileBytes}");
            }

            key = File.ReadAllBytes(path);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or ArgumentException or NotSupportedException)
        {
            throw new CliException($"cannot read key file '{path}': {Describe(ex)}");
        }

        if (key.Length == 0)
        {
            throw new CliException($"key file '{path}' is empty");
        }

        return key;
    }

    /// <summary>Clears a key once it has been handed over.</summary>
    public static void Forget(byte[] key) => CryptographicOperations.ZeroMemory(key);

    private static string Describe(Exception ex) => ex switch
    {
        FileNotFoundException => "no such file",
        DirectoryNotFoundException => "no such directory",
        UnauthorizedAccessException => "permission denied",
        _ => ex.Message.TrimEnd('.'),
    };
}
