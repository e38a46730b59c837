using System.Buffers.Binary;
using System.Diagnostics.CodeAnalysis;
using System.Runtime.InteropServices;
using System.Xml;
using Spanwire.BinaryXml.Reading;

namespace Spanwire.BinaryXml.Xml;

// Array records read straight into the caller's array, as the in-box reader does when the reader is on the first
// unread element of an array record of the requested type and name. Otherwise (repeated elements, another type)
// XmlDictionaryReader reads element by element. After the last item the reader is on the node after the array;
// after fewer, it stays on the array's element.
internal sealed partial class NbfxXmlReader
{
    private delegate T ItemReader<T>(ReadOnlySpan<byte> item, long offset);

    private bool OnArrayElement => _arrayStep == ArrayStep.Text;

    public override bool IsStartArray([NotNullWhen(true)] out Type? type)
    {
        type = !OnArrayElement ? null : _arrayType switch
        {
            NbfxValueType.Bool => typeof(bool),
            NbfxValueType.Int16 => typeof(short),
            NbfxValueType.Int32 => typeof(int),
            NbfxValueType.Int64 => typeof(long),
            NbfxValueType.Float => typeof(float),
            NbfxValueType.Double => typeof(double),
            NbfxValueType.Decimal => typeof(decimal),
            NbfxValueType.DateTime => typeof(DateTime),
            NbfxValueType.Guid => typeof(Guid),
            NbfxValueType.TimeSpan => typeof(TimeSpan),
            _ => null,
        };
        return type is not null;
    }

    public override bool TryGetArrayLength(out int count)
    {
        count = OnArrayElement ? _arrayLeft : 0;
        return OnArrayElement;
    }

    private bool IsStartArray(string localName, string namespaceUri, NbfxValueType type) =>
        IsStartElement(localName, namespaceUri) && OnArrayElement && _arrayType == type;

    private bool IsStartArray(XmlDictionaryString localName, XmlDictionaryString namespaceUri, NbfxValueType type) =>
        IsStartElement(localName, namespaceUri) && OnArrayElement && _arrayType == type;

    public override int ReadArray(string localName, string namespaceUri, bool[] array, int offset, int count) =>
        IsStartArray(localName, namespaceUri, NbfxValueType.Bool) ? ReadBooleans(array, offset, count) : base.ReadArray(localName, namespaceUri, array, offset, count);

    public override int ReadArray(XmlDictionaryString localName, XmlDictionaryString namespaceUri, bool[] array, int offset, int count) =>
        IsStartArray(localName, namespaceUri, NbfxValueType.Bool) ? ReadBooleans(array, offset, count) : base.ReadArray(localName, namespaceUri, array, offset, count);

    public override int ReadArray(string localName, string namespaceUri, short[] array, int offset, int count) =>
        BitConverter.IsLittleEndian && IsStartArray(localName, namespaceUri, NbfxValueType.Int16) ? ReadRaw(array, offset, count) : base.ReadArray(localName, namespaceUri, array, offset, count);

    public override int ReadArray(XmlDictionaryString localName, XmlDictionaryString namespaceUri, short[] array, int offset, int count) =>
        BitConverter.IsLittleEndian && IsStartArray(localName, namespaceUri, NbfxValueType.Int16) ? ReadRaw(array, offset, count) : base.ReadArray(localName, namespaceUri, array, offset, count);

    public override int ReadArray(string localName, string namespaceUri, int[] array, int offset, int count) =>
        BitConverter.IsLittleEndian && IsStartArray(localName, namespaceUri, NbfxValueType.Int32) ? ReadRaw(array, offset, count) : base.ReadArray(localName, namespaceUri, array, offset, count);

    public override int ReadArray(XmlDictionaryString localName, XmlDictionaryString namespaceUri, int[] array, int offset, int count) =>
        BitConverter.IsLittleEndian && IsStartArray(localName, namespaceUri, NbfxValueType.Int32) ? ReadRaw(array, offset, count) : base.ReadArray(localName, namespaceUri, array, offset, count);

    public override int ReadArray(string localName, string namespaceUri, long[] array, int offset, int count) =>
        BitConverter.IsLittleEndian && IsStartArray(localName, namespaceUri, NbfxValueType.Int64) ? ReadRaw(array, offset, count) : base.ReadArray(localName, namespaceUri, array, offset, count);

    public override int ReadArray(XmlDictionaryString localName, XmlDictionaryString namespaceUri, long[] array, int offset, int count) =>
        BitConverter.IsLittleEndian && IsStartArray(localName, namespaceUri, NbfxValueType.Int64) ? ReadRaw(array, offset, count) : base.ReadArray(localName, namespaceUri, array, offset, count);

    public override int ReadArray(string localName, string namespaceUri, float[] array, int offset, int count) =>
        BitConverter.IsLittleEndian && IsStartArray(localName, namespaceUri, NbfxValueType.Float) ? ReadRaw(array, offset, count) : base.ReadArray(localName, namespaceUri, array, offset, count);

    public override int ReadArray(XmlDictionaryString localName, XmlDictionaryString namespaceUri, float[] array, int offset, int count) =>
        BitConverter.IsLittleEndian && IsStartArray(localName, namespaceUri, NbfxValueType.Float) ? ReadRaw(array, offset, count) : base.ReadArray(localName, namespaceUri, array, offset, count);

    public override int ReadArray(string localName, string namespaceUri, double[] array, int offset, int count) =>
        BitConverter.IsLittleEndian && IsStartArray(localName, namespaceUri, NbfxValueType.Double) ? ReadRaw(array, offset, count) : base.ReadArray(localName, namespaceUri, array, offset, count);

    public override int ReadArray(XmlDictionaryString localName, XmlDictionaryString namespaceUri, double[] array, int offset, int count) =>
        BitConverter.IsLittleEndian && IsStartArray(localName, namespaceUri, NbfxValueType.Double) ? ReadRaw(array, offset, count) : base.ReadArray(localName, namespaceUri, array, offset, count);

    public override int ReadArray(string localName, string namespaceUri, decimal[] array, int offset, int count) =>
        IsStartArray(localName, namespaceUri, NbfxValueType.Decimal) ? ReadItems(array, offset, count, s_decimal) : base.ReadArray(localName, namespaceUri, array, offset, count);

    public override int ReadArray(XmlDictionaryString localName, XmlDictionaryString namespaceUri, decimal[] array, int offset, int count) =>
        IsStartArray(localName, namespaceUri, NbfxValueType.Decimal) ? ReadItems(array, offset, count, s_decimal) : base.ReadArray(localName, namespaceUri, array, offset, count);

    public override int ReadArray(string localName, string namespaceUri, DateTime[] array, int offset, int count) =>
        IsStartArray(localName, namespaceUri, NbfxValueType.DateTime) ? ReadItems(array, offset, count, s_dateTime) : base.ReadArray(localName, namespaceUri, array, offset, count);

    public override int ReadArray(XmlDictionaryString localName, XmlDictionaryString namespaceUri, DateTime[] array, int offset, int count) =>
        IsStartArray(localName, namespaceUri, NbfxValueType.DateTime) ? ReadItems(array, offset, count, s_dateTime) : base.ReadArray(localName, namespaceUri, array, offset, count);

    public override int ReadArray(string localName, string namespaceUri, Guid[] array, int offset, int count) =>
        IsStartArray(localName, namespaceUri, NbfxValueType.Guid) ? ReadItems(array, offset, count, s_guid) : base.ReadArray(localName, namespaceUri, array, offset, count);

    public override int ReadArray(XmlDictionaryString localName, XmlDictionaryString namespaceUri, Guid[] array, int offset, int count) =>
        IsStartArray(localName, namespaceUri, NbfxValueType.Guid) ? ReadItems(array, offset, count, s_guid) : base.ReadArray(localName, namespaceUri, array, offset, count);

    public override int ReadArray(string localName, string namespaceUri, TimeSpan[] array, int offset, int count) =>
        IsStartArray(localName, namespaceUri, NbfxValueType.TimeSpan) ? ReadItems(array, offset, count, s_timeSpan) : base.ReadArray(localName, namespaceUri, array, offset, count);

    public override int ReadArray(XmlDictionaryString localName, XmlDictionaryString namespaceUri, TimeSpan[] array, int offset, int count) =>
        IsStartArray(localName, namespaceUri, NbfxValueType.TimeSpan) ? ReadItems(array, offset, count, s_timeSpan) : base.ReadArray(localName, namespaceUri, array, offset, count);

    private static readonly ItemReader<decimal> s_decimal = static (item, at) =>
        NbfxPrimitives.TryReadDecimal(item, out decimal value) ? value : ThrowBadItem<decimal>("a decimal with an invalid scale or flags", at);

    private static readonly ItemReader<DateTime> s_dateTime = static (item, at) =>
        NbfxPrimitives.TryDateTimeFromBinary(BinaryPrimitives.ReadInt64LittleEndian(item), out DateTime value) ? value : ThrowBadItem<DateTime>("a DateTime out of range", at);

    private static readonly ItemReader<Guid> s_guid = static (item, _) => new Guid(item);

    private static readonly ItemReader<TimeSpan> s_timeSpan = static (item, _) => new TimeSpan(BinaryPrimitives.ReadInt64LittleEndian(item));

    [DoesNotReturn]
    private static T ThrowBadItem<T>(string message, long at) => throw new NbfxFormatException(message, at);

    /// <summary>Items whose bytes are the value on a little-endian machine: copied as they are.</summary>
    private int ReadRaw<T>(T[] array, int offset, int count) where T : unmanaged
    {
        ArrayArguments.Check(array, offset, count);
        int n = Math.Min(count, _arrayLeft);
        ReadOnlySpan<byte> window = Window;
        _c.CopyTo(ref window, MemoryMarshal.AsBytes(array.AsSpan(offset, n)));
        EndArrayItems(n);
        return n;
    }

    private int ReadBooleans(bool[] array, int offset, int count)
    {
        int n = ReadRaw(array, offset, count);
        Span<byte> bytes = MemoryMarshal.AsBytes(array.AsSpan(offset, n));
        for (int i = 0; i < bytes.Length; i++)
        {
            bytes[i] = bytes[i] != 0 ? (byte)1 : (byte)0; // any non-zero byte is true; keep bool's one representation
        }
        return n;
    }

    /// <summary>Items converted one by one (and checked: decimal flags, DateTime ticks), through a small stack buffer.</summary>
    private int ReadItems<T>(T[] array, int offset, int count, ItemReader<T> convert)
    {
        ArrayArguments.Check(array, offset, count);
        int n = Math.Min(count, _arrayLeft);
        int size = _c.ArrayItemSize;
        Span<byte> chunk = stackalloc byte[256];
        ReadOnlySpan<byte> window = Window;
        for (int done = 0; done < n;)
        {
            int items = Math.Min(n - done, chunk.Length / size);
            long at = _c.Position;
            Span<byte> bytes = chunk[..(items * size)];
            _c.CopyTo(ref window, bytes);
            for (int i = 0; i < items; i++)
            {
                array[offset + done + i] = convert(bytes.Slice(i * size, size), at + (long)i * size);
            }
            done += items;
        }
        EndArrayItems(n);
        return n;
    }

    private void EndArrayItems(int n)
    {
        _c.ConsumeArrayItems(n);
        _arrayLeft -= n;
        if (_arrayLeft == 0)
        {
            _arrayStep = ArrayStep.None;
            _exitScope = true;
            Read();
        }
    }
}
