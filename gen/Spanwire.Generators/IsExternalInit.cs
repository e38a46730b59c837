namespace System.Runtime.CompilerServices;

// Records and init accessors on netstandard2.0, which lacks the type the compiler marks them with.
internal static class IsExternalInit
{
}
