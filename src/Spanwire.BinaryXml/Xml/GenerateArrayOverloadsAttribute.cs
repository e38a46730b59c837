using System.Diagnostics;

namespace Spanwire.BinaryXml.Xml;

/// <summary>Asks the build's generator for the typed WriteArray or ReadArray overrides of the marked drop-in.</summary>
[AttributeUsage(AttributeTargets.Class, Inherited = false)]
[Conditional("SPANWIRE_GENERATOR_MARKERS")] // read by the generator from the source; nothing is left in the assembly
internal sealed class GenerateArrayOverloadsAttribute : Attribute
{
}
