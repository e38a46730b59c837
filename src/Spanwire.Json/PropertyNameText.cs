namespace Spanwire.Json;

/// <summary>A property name as the caller gave it (UTF-16 or UTF-8), with where writing through the escaping starts (-1: never; see JsonEscaping.StartOfEscaping).</summary>
internal readonly ref struct PropertyNameText
{
    public readonly ReadOnlySpan<char> Utf16;
    public readonly ReadOnlySpan<byte> Utf8;
    public readonly int First;
    public readonly bool IsUtf16;

    public PropertyNameText(ReadOnlySpan<char> utf16, int first)
    {
        Utf16 = utf16;
        First = first;
        IsUtf16 = true;
    }

    public PropertyNameText(ReadOnlySpan<byte> utf8, int first)
    {
        Utf8 = utf8;
        First = first;
    }
}
