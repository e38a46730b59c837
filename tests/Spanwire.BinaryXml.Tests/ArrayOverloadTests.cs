using System.Reflection;
using System.Xml;
using Spanwire.BinaryXml.Xml;

namespace Spanwire.BinaryXml.Tests;

/// <summary>
/// The drop-ins' typed array overloads are generated; a type missing from the generator's table would compile (the
/// base class has every overload) and quietly fall back to element-by-element reading and writing. So: every typed
/// overload XmlDictionaryWriter and XmlDictionaryReader declare is overridden by the drop-ins.
/// </summary>
public class ArrayOverloadTests
{
    [Theory]
    [InlineData(typeof(XmlDictionaryWriter), typeof(NbfxXmlWriter), "WriteArray")]
    [InlineData(typeof(XmlDictionaryReader), typeof(NbfxXmlReader), "ReadArray")]
    public void Every_typed_array_overload_of_the_base_class_is_overridden(Type baseType, Type dropIn, string method)
    {
        string[] expected = [.. Overloads(baseType, method, BindingFlags.Public | BindingFlags.Instance).Where(m => m.IsVirtual).Select(Signature).Order()];
        string[] actual = [.. Overloads(dropIn, method, BindingFlags.Public | BindingFlags.Instance | BindingFlags.DeclaredOnly).Select(Signature).Order()];

        Assert.Equal(20, expected.Length); // ten element types, each by string and by dictionary name
        Expect.SameLines(expected, actual, $"{dropIn.Name}.{method} overrides");
    }

    private static IEnumerable<MethodInfo> Overloads(Type type, string name, BindingFlags flags) =>
        type.GetMethods(flags).Where(m => m.Name == name && m.GetParameters().Any(p => p.ParameterType.IsArray));

    private static string Signature(MethodInfo method) => string.Join(", ", method.GetParameters().Select(p => p.ParameterType.Name));
}
