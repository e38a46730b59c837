namespace Spanwire.BinaryXml.Tests;

/// <summary>
/// Canary for the probe of the runtime's internals: the writer binds XmlBinaryWriterSession's non-public lookup and
/// falls back quietly without it (a runtime update), so a test says it.
/// </summary>
public class ProbeCanaryTests
{
    [Fact]
    public void The_writer_binds_the_runtimes_own_session_lookup()
    {
        Assert.True(WriterSessions.UsesRuntimeLookup,
            "XmlBinaryWriterSession.TryLookup(XmlDictionaryString, out int) was not found: the fallback remembers strings per session instead");
    }
}
