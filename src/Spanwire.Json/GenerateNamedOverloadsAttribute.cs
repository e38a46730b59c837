using System.Diagnostics;

namespace Spanwire.Json;

/// <summary>Asks the build's generator for Utf8JsonWriter's property-name-and-value overloads on the marked class.</summary>
[AttributeUsage(AttributeTargets.Class, Inherited = false)]
[Conditional("SPANWIRE_GENERATOR_MARKERS")] // read by the generator from the source; nothing is left in the assembly
internal sealed class GenerateNamedOverloadsAttribute : Attribute
{
}
