using System.Reflection;
using System.Xml;

namespace Spanwire.BinaryXml;

/// <summary>
/// Looks strings up in an <see cref="XmlBinaryWriterSession"/> and adds them, as the in-box writer does. Its lookup is not
/// public, so it is bound once by reflection; without it, strings this process added are remembered per session.
/// </summary>
internal static class WriterSessions
{
    private delegate bool LookupFunc(XmlBinaryWriterSession session, XmlDictionaryString value, out int key);

    private static readonly LookupFunc? s_lookup = BindLookup();
    private static readonly System.Runtime.CompilerServices.ConditionalWeakTable<XmlBinaryWriterSession, Dictionary<XmlDictionaryString, int>> s_known = new();

    /// <summary>Whether the runtime's own lookup was found (the canary test fails when a runtime update renames it).</summary>
    internal static bool UsesRuntimeLookup => s_lookup is not null;

    private static LookupFunc? BindLookup()
    {
        MethodInfo? method = typeof(XmlBinaryWriterSession).GetMethod("TryLookup", BindingFlags.Instance | BindingFlags.NonPublic,
            [typeof(XmlDictionaryString), typeof(int).MakeByRefType()]);
        return method is null ? null : method.CreateDelegate<LookupFunc>();
    }

    public static bool TryGetOrAdd(XmlBinaryWriterSession session, XmlDictionaryString value, out int key)
    {
        if (s_lookup is not null)
        {
            if (s_lookup(session, value, out key))
            {
                return true;
            }

            return session.TryAdd(value, out key);
        }

        Dictionary<XmlDictionaryString, int> known = s_known.GetOrCreateValue(session);
        lock (known)
        {
            if (known.TryGetValue(value, out key))
            {
                return true;
            }

            if (!session.TryAdd(value, out key))
            {
                return false;
            }

            known.Add(value, key);
            return true;
        }
    }
}
