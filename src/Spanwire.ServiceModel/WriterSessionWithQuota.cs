using System.Text;
using System.Xml;
using Spanwire.BinaryXml;

namespace Spanwire.ServiceModel;

/// <summary>
/// The session of a session encoder's writer: strings join it while their UTF-8 bytes and length prefixes fit in the
/// session's size; the first string that does not fit closes it for good (as WCF's encoder does). The strings added
/// since the last message go in front of the next message.
/// </summary>
internal sealed class WriterSessionWithQuota(int maxSessionSize) : XmlBinaryWriterSession
{
    private readonly List<XmlDictionaryString> _newStrings = [];
    private int _bytesRemaining = maxSessionSize;

    public List<XmlDictionaryString> NewStrings => _newStrings;

    public override bool TryAdd(XmlDictionaryString value, out int key)
    {
        if (_bytesRemaining == 0)
        {
            key = -1;
            return false;
        }

        int length = Encoding.UTF8.GetByteCount(value.Value);
        int required = length + NbfxPrimitives.GetMultiByteInt31Length(length);
        if (required > _bytesRemaining)
        {
            key = -1;
            _bytesRemaining = 0;
            return false;
        }

        if (!base.TryAdd(value, out key))
        {
            return false;
        }

        _newStrings.Add(value);
        _bytesRemaining -= required;
        return true;
    }
}
