using System.Reflection;
using System.Runtime.Loader;

namespace Spanwire;

/// <summary>
/// System.Text.Json 11.0.0, the NuGet package, loaded beside the runtime's own in an AssemblyLoadContext of its own
/// (the files that tests/Shared/Json/JsonPackage.targets copies to stj11/). Code of the calling assembly loaded
/// through <see cref="LoadCopyOf"/> binds to the package: the same benchmark or test, run against both writers.
/// </summary>
public sealed class JsonPackageContext : AssemblyLoadContext
{
    /// <summary>The package version the files are.</summary>
    public const string PackageVersion = "11.0.0";

    private static readonly string s_folder = Path.Combine(AppContext.BaseDirectory, "stj11");
    private static readonly Lazy<JsonPackageContext?> s_instance = new(() =>
        File.Exists(Path.Combine(s_folder, "System.Text.Json.dll")) ? new JsonPackageContext() : null);
    private readonly Dictionary<string, string> _copies = [];

    private JsonPackageContext()
        : base("System.Text.Json " + PackageVersion)
    {
    }

    /// <summary>The context, or null when the package's files are not beside this program.</summary>
    public static JsonPackageContext? Instance => s_instance.Value;

    /// <summary>The package's System.Text.Json assembly.</summary>
    public Assembly Json => LoadFromAssemblyName(new AssemblyName("System.Text.Json"));

    /// <summary>A second copy of <paramref name="assembly"/> in this context, so its references to System.Text.Json bind to the package.</summary>
    /// <param name="assembly">An assembly of this program (a benchmark or test assembly).</param>
    /// <returns>The copy.</returns>
    public Assembly LoadCopyOf(Assembly assembly)
    {
        lock (_copies)
        {
            _copies[assembly.GetName().Name!] = assembly.Location;
        }

        return LoadFromAssemblyName(assembly.GetName());
    }

    /// <inheritdoc />
    protected override Assembly? Load(AssemblyName assemblyName)
    {
        string candidate = Path.Combine(s_folder, assemblyName.Name + ".dll");
        if (File.Exists(candidate))
        {
            return LoadFromAssemblyPath(candidate);
        }

        lock (_copies)
        {
            return _copies.TryGetValue(assemblyName.Name!, out string? path) ? LoadFromAssemblyPath(path) : null;
        }
    }
}
