namespace Spanwire.Amqp.Protocol;

/// <summary>Where a parsed field lies in its payload, packed in one ulong (start in the high half, length in the low).</summary>
internal static class PayloadSlot
{
    public static ulong Pack(int start, int length) => ((ulong)(uint)start << 32) | (uint)length;

    public static int Start(ulong slot) => (int)(slot >> 32);

    public static ReadOnlySpan<byte> Slice(ReadOnlySpan<byte> payload, ulong slot) => payload.Slice(Start(slot), (int)(uint)slot);
}
