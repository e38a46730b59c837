using System.Diagnostics.CodeAnalysis;
using System.Runtime.CompilerServices;

namespace Spanwire.Amqp.Protocol;

/// <summary>Cold throw paths of the codec, out of line so the read and write paths stay small.</summary>
internal static class AmqpThrow
{
    [DoesNotReturn, MethodImpl(MethodImplOptions.NoInlining)]
    public static void Truncated(long offset, string what, long needed, long available) =>
        throw new AmqpProtocolException(AmqpReplyCode.FrameError, offset,
            $"{what} needs {needed} bytes but only {available} remain in its container.");

    [DoesNotReturn, MethodImpl(MethodImplOptions.NoInlining)]
    public static void Protocol(ushort replyCode, long offset, string detail) =>
        throw new AmqpProtocolException(replyCode, offset, detail);

    [DoesNotReturn, MethodImpl(MethodImplOptions.NoInlining)]
    public static void DestinationTooSmall(int needed, int available) =>
        throw new ArgumentException($"The destination is too small: {needed} more bytes are needed and {available} are free.", "destination");

    [DoesNotReturn, MethodImpl(MethodImplOptions.NoInlining)]
    public static void ShortStringTooLong(int byteCount) =>
        throw new ArgumentException($"A shortstr holds at most 255 bytes; this one is {byteCount} bytes in UTF-8.", "value");

    [DoesNotReturn, MethodImpl(MethodImplOptions.NoInlining)]
    public static void InvalidUtf16() =>
        throw new ArgumentException("The text is not valid UTF-16 (a lone surrogate), so it has no UTF-8 form.", "value");

    [DoesNotReturn, MethodImpl(MethodImplOptions.NoInlining)]
    public static void WrongValueType(FieldValueType actual, string requested) =>
        throw new InvalidOperationException($"The field value is of type '{(char)actual}' ({actual}), not {requested}.");

    [DoesNotReturn, MethodImpl(MethodImplOptions.NoInlining)]
    public static void InvalidOperation(string message) => throw new InvalidOperationException(message);
}
