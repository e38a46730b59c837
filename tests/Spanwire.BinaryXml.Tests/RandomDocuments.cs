using System.Xml;

namespace Spanwire.BinaryXml.Tests;

/// <summary>
/// Seeded random XmlDictionaryWriter call scripts: nested elements, prefixes, namespaces, attributes, every value type
/// with its edges, strings in several alphabets, arrays, dictionary and session strings.
/// </summary>
internal sealed class RandomDocuments
{
    private readonly Random _random;
    public readonly XmlDictionary Dictionary = new();
    private readonly XmlDictionaryString[] _dictionaryStrings;
    private readonly XmlDictionaryString[] _sessionStrings;

    private static readonly string[] s_names = ["a", "root", "Item", "x", "value", "données", "名前", "n" + new string('e', 50), "Order_Line", "b"];
    private static readonly string[] s_prefixes = ["a", "b", "p", "q", "z", "ns", "xs", "pre"];
    private static readonly string[] s_namespaces = ["urn:x", "urn:y", "http://schemas.datacontract.org/2004/07/Shop", "http://www.w3.org/2001/XMLSchema-instance", "urn:" + new string('u', 60), ""];

    public RandomDocuments(int seed)
    {
        _random = new Random(seed);
        _dictionaryStrings = new[] { "Envelope", "Body", "urn:dict", "Header", "count", "a" }.Select(s => Dictionary.Add(s)).ToArray();
        var other = new XmlDictionary();
        _sessionStrings = new[] { "Session1", "urn:session", "Second", "b" }.Select(s => other.Add(s)).ToArray();
    }

    public bool NextBool(int percent) => _random.Next(100) < percent;

    /// <summary>One document as a list of calls, replayable on any XmlDictionaryWriter.</summary>
    public List<Action<XmlDictionaryWriter>> Next()
    {
        var calls = new List<Action<XmlDictionaryWriter>>();
        Element(calls, 0);
        return calls;
    }

    private void Element(List<Action<XmlDictionaryWriter>> calls, int depth)
    {
        int kind = _random.Next(10);
        if (kind < 2)
        {
            XmlDictionaryString name = PickDictionaryName();
            XmlDictionaryString? ns = _random.Next(3) == 0 ? null : PickDictionaryName();
            string? prefix = _random.Next(3) == 0 ? null : s_prefixes[_random.Next(s_prefixes.Length)];
            if (ns is null) prefix = null;
            calls.Add(w => w.WriteStartElement(prefix, name, ns));
        }
        else
        {
            string name = s_names[_random.Next(s_names.Length)];
            string? ns = _random.Next(3) == 0 ? null : s_namespaces[_random.Next(s_namespaces.Length)];
            string? prefix = ns is null || ns.Length == 0 || _random.Next(2) == 0 ? null : s_prefixes[_random.Next(s_prefixes.Length)];
            calls.Add(w => w.WriteStartElement(prefix, name, ns));
        }

        int attributes = _random.Next(4);
        for (int i = 0; i < attributes; i++)
        {
            Attribute(calls);
        }

        int children = depth >= 4 ? 0 : _random.Next(5);
        for (int i = 0; i < children; i++)
        {
            switch (_random.Next(10))
            {
                case < 4: Element(calls, depth + 1); break;
                case < 8: Value(calls); break;
                case 8: Array(calls); break;
                default: string c = Text(40); calls.Add(w => w.WriteComment(c.Replace("--", "- "))); break;
            }
        }

        if (_random.Next(4) == 0) Value(calls);
        calls.Add(w => w.WriteEndElement());
    }

    private XmlDictionaryString PickDictionaryName() =>
        _random.Next(3) == 0 ? _sessionStrings[_random.Next(_sessionStrings.Length)] : _dictionaryStrings[_random.Next(_dictionaryStrings.Length)];

    private void Attribute(List<Action<XmlDictionaryWriter>> calls)
    {
        switch (_random.Next(6))
        {
            case 0:
                {
                    string p = s_prefixes[_random.Next(s_prefixes.Length)];
                    string ns = s_namespaces[_random.Next(s_namespaces.Length - 1)];
                    calls.Add(w => w.WriteXmlnsAttribute(p, ns));
                    return;
                }
            case 1:
                {
                    XmlDictionaryString name = PickDictionaryName();
                    XmlDictionaryString ns = PickDictionaryName();
                    string? prefix = _random.Next(2) == 0 ? null : s_prefixes[_random.Next(s_prefixes.Length)];
                    calls.Add(w => w.WriteStartAttribute(prefix, name, ns));
                    break;
                }
            default:
                {
                    string name = s_names[_random.Next(s_names.Length)] + _random.Next(3);
                    string? ns = _random.Next(2) == 0 ? null : s_namespaces[_random.Next(s_namespaces.Length - 1)];
                    string? prefix = ns is null || _random.Next(2) == 0 ? null : s_prefixes[_random.Next(s_prefixes.Length)];
                    calls.Add(w => w.WriteStartAttribute(prefix, name, ns));
                    break;
                }
        }

        int parts = _random.Next(3);
        for (int i = 0; i < parts; i++)
        {
            if (_random.Next(3) == 0) { Value(calls, typedOnly: true); break; }

            string s = Text(200);
            calls.Add(w => w.WriteString(s));
        }

        calls.Add(w => w.WriteEndAttribute());
    }

    private void Value(List<Action<XmlDictionaryWriter>> calls, bool typedOnly = false)
    {
        switch (_random.Next(typedOnly ? 12 : 16))
        {
            case 0: { int v = PickInt(); calls.Add(w => w.WriteValue(v)); break; }
            case 1: { long v = PickLong(); calls.Add(w => w.WriteValue(v)); break; }
            case 2: { double v = PickDouble(); calls.Add(w => w.WriteValue(v)); break; }
            case 3: { float v = (float)PickDouble(); calls.Add(w => w.WriteValue(v)); break; }
            case 4: { decimal v = PickDecimal(); calls.Add(w => w.WriteValue(v)); break; }
            case 5: { DateTime v = PickDateTime(); calls.Add(w => w.WriteValue(v)); break; }
            case 6: { TimeSpan v = PickTimeSpan(); calls.Add(w => w.WriteValue(v)); break; }
            case 7: { Guid v = new(Bytes(16)); calls.Add(w => w.WriteValue(v)); break; }
            case 8: { bool v = _random.Next(2) == 0; calls.Add(w => w.WriteValue(v)); break; }
            case 9: { ulong v = _random.Next(2) == 0 ? ulong.MaxValue : (ulong)_random.NextInt64(); calls.Add(w => w.WriteValue((object)v)); break; }
            case 10: { var v = new UniqueId(new Guid(Bytes(16))); calls.Add(w => w.WriteValue(v)); break; }
            case 11: { XmlDictionaryString v = PickDictionaryName(); calls.Add(w => w.WriteString(v)); break; }
            case 12: case 13: { string s = Text(1000); calls.Add(w => w.WriteString(s)); break; }
            case 14: { byte[] b = Bytes(_random.Next(700)); int split = _random.Next(b.Length + 1); calls.Add(w => { w.WriteBase64(b, 0, split); w.WriteBase64(b, split, b.Length - split); }); break; }
            default: { char[] c = Text(300).ToCharArray(); calls.Add(w => w.WriteChars(c, 0, c.Length)); break; }
        }
    }

    private void Array(List<Action<XmlDictionaryWriter>> calls)
    {
        int length = _random.Next(4) switch { 0 => 0, 1 => 1, 2 => _random.Next(20), _ => _random.Next(1001) };
        string name = s_names[_random.Next(s_names.Length)];
        string? ns = _random.Next(2) == 0 ? null : s_namespaces[_random.Next(s_namespaces.Length - 1)];
        string? prefix = ns is null || _random.Next(2) == 0 ? null : s_prefixes[_random.Next(s_prefixes.Length)];
        switch (_random.Next(10))
        {
            case 0: { var a = Fill(length, () => _random.Next(2) == 0); calls.Add(w => w.WriteArray(prefix, name, ns, a, 0, a.Length)); break; }
            case 1: { var a = Fill(length, () => (short)_random.Next()); calls.Add(w => w.WriteArray(prefix, name, ns, a, 0, a.Length)); break; }
            case 2: { var a = Fill(length, PickInt); calls.Add(w => w.WriteArray(prefix, name, ns, a, 0, a.Length)); break; }
            case 3: { var a = Fill(length, PickLong); calls.Add(w => w.WriteArray(prefix, name, ns, a, 0, a.Length)); break; }
            case 4: { var a = Fill(length, () => (float)PickDouble()); calls.Add(w => w.WriteArray(prefix, name, ns, a, 0, a.Length)); break; }
            case 5: { var a = Fill(length, PickDouble); calls.Add(w => w.WriteArray(prefix, name, ns, a, 0, a.Length)); break; }
            case 6: { var a = Fill(length, PickDecimal); calls.Add(w => w.WriteArray(prefix, name, ns, a, 0, a.Length)); break; }
            case 7: { var a = Fill(length, PickDateTime); calls.Add(w => w.WriteArray(prefix, name, ns, a, 0, a.Length)); break; }
            case 8: { var a = Fill(length, () => new Guid(Bytes(16))); calls.Add(w => w.WriteArray(prefix, name, ns, a, 0, a.Length)); break; }
            default: { var a = Fill(length, PickTimeSpan); calls.Add(w => w.WriteArray(prefix, name, ns, a, 0, a.Length)); break; }
        }
    }

    private static T[] Fill<T>(int length, Func<T> next)
    {
        var a = new T[length];
        for (int i = 0; i < length; i++) a[i] = next();
        return a;
    }

    private byte[] Bytes(int n)
    {
        var b = new byte[n];
        _random.NextBytes(b);
        return b;
    }

    public int PickInt() => _random.Next(8) switch
    {
        0 => 0,
        1 => 1,
        2 => int.MaxValue,
        3 => int.MinValue,
        4 => -1,
        5 => _random.Next(-200, 200),
        6 => _random.Next(-40000, 40000),
        _ => _random.Next(int.MinValue, int.MaxValue),
    };

    public long PickLong() => _random.Next(5) switch
    {
        0 => long.MaxValue,
        1 => long.MinValue,
        2 => PickInt(),
        3 => (long)int.MaxValue + 1,
        _ => _random.NextInt64(long.MinValue, long.MaxValue),
    };

    public double PickDouble() => _random.Next(14) switch
    {
        0 => double.NaN,
        1 => double.PositiveInfinity,
        2 => double.NegativeInfinity,
        3 => -0.0,
        4 => double.Epsilon,
        5 => float.Epsilon,
        6 => double.MaxValue,
        7 => double.MinValue,
        8 => _random.Next(-40000, 40000),
        9 => 1.0 / 3,
        10 => _random.Next(-100, 100) / 4.0,
        11 => float.MaxValue,
        12 => 32768,
        _ => (_random.NextDouble() - 0.5) * Math.Pow(10, _random.Next(-30, 30)),
    };

    public decimal PickDecimal() => _random.Next(6) switch
    {
        0 => decimal.MaxValue,
        1 => decimal.MinValue,
        2 => 0m,
        3 => -0.0000000000000000000000000001m,
        4 => new decimal(_random.Next(), _random.Next(), _random.Next(), _random.Next(2) == 0, (byte)_random.Next(29)),
        _ => 1.2m,
    };

    public DateTime PickDateTime()
    {
        long ticks = _random.Next(4) switch { 0 => 0, 1 => DateTime.MaxValue.Ticks, 2 => new DateTime(2024, 2, 29).Ticks, _ => _random.NextInt64(DateTime.MinValue.Ticks + TimeSpan.TicksPerDay, DateTime.MaxValue.Ticks - TimeSpan.TicksPerDay) };
        return new DateTime(ticks, (DateTimeKind)_random.Next(3));
    }

    public TimeSpan PickTimeSpan() => _random.Next(4) switch
    {
        0 => TimeSpan.MaxValue,
        1 => TimeSpan.MinValue,
        2 => TimeSpan.Zero,
        _ => new TimeSpan(_random.NextInt64()),
    };

    private static readonly string[] s_alphabets =
    [
        "abcdefghijklmnopqrstuvwxyz0123456789 <>&\"'",
        "àéîõüßøåçñÀÉÎÕÜ",
        "中文字符日本語한국어",
        "😀🚀🎉",
    ];

    /// <summary>0..max chars in one alphabet or a mix, rarely with a lone surrogate.</summary>
    public string Text(int max)
    {
        int length = _random.Next(5) switch { 0 => _random.Next(3), 1 => _random.Next(10), 2 => 80 + _random.Next(12), _ => _random.Next(max + 1) };
        int alphabet = _random.Next(s_alphabets.Length + 1);
        var chars = new System.Text.StringBuilder(length);
        while (chars.Length < length)
        {
            string a = s_alphabets[alphabet == s_alphabets.Length ? _random.Next(s_alphabets.Length) : alphabet];
            if (char.IsHighSurrogate(a[0]))
            {
                int i = _random.Next(a.Length / 2) * 2;
                chars.Append(a, i, 2);
            }
            else
            {
                chars.Append(a[_random.Next(a.Length)]);
            }
        }

        if (_random.Next(200) == 0)
        {
            chars.Insert(_random.Next(chars.Length + 1), '\uD800');
        }

        return chars.ToString();
    }
}
