using System.Buffers;
using System.Runtime.Serialization;
using System.Xml;
using BenchmarkDotNet.Attributes;

namespace Spanwire.Benchmarks.BinaryXml;

/// <summary>
/// DataContractSerializer.WriteObject through the in-box binary writer (baseline) and through the drop-in, for the
/// shapes of the .NET performance repository's serializer benchmarks.
/// </summary>
[MemoryDiagnoser]
public class DataContractWriteBenchmarks
{
    public enum Graph { LoginViewModel, Location, IndexViewModel, CollectionsOfPrimitives }

    [Params(Graph.LoginViewModel, Graph.Location, Graph.IndexViewModel, Graph.CollectionsOfPrimitives)]
    public Graph Shape { get; set; }

    private object _value = null!;
    private DataContractSerializer _serializer = null!;
    private readonly MemoryStream _stream = new();
    private readonly ArrayBufferWriter<byte> _output = new(64 * 1024);

    [GlobalSetup]
    public void Setup()
    {
        _value = Shape switch
        {
            Graph.LoginViewModel => SerializerGraphs.Login(),
            Graph.Location => SerializerGraphs.Location(),
            Graph.IndexViewModel => SerializerGraphs.Index(),
            _ => SerializerGraphs.Primitives(),
        };
        _serializer = new DataContractSerializer(_value.GetType());
    }

    [Benchmark(Baseline = true)]
    public long InBox()
    {
        _stream.Position = 0;
        using (XmlDictionaryWriter writer = XmlDictionaryWriter.CreateBinaryWriter(_stream, null, null, ownsStream: false))
        {
            _serializer.WriteObject(writer, _value);
        }

        return _stream.Position;
    }

    [Benchmark]
    public long DropIn()
    {
        _output.ResetWrittenCount();
        using (XmlDictionaryWriter writer = Spanwire.BinaryXml.Nbfx.CreateWriter(_output))
        {
            _serializer.WriteObject(writer, _value);
        }

        return _output.WrittenCount;
    }
}

/// <summary>The graphs of the performance repository's serializer benchmarks, rebuilt with fixed values.</summary>
public static class SerializerGraphs
{
    [DataContract]
    public sealed class LoginViewModel
    {
        [DataMember] public string Email { get; set; } = "";
        [DataMember] public string Password { get; set; } = "";
        [DataMember] public bool RememberMe { get; set; }
    }

    [DataContract]
    public sealed class LocationModel
    {
        [DataMember] public int Id { get; set; }
        [DataMember] public string Address1 { get; set; } = "";
        [DataMember] public string Address2 { get; set; } = "";
        [DataMember] public string Address3 { get; set; } = "";
        [DataMember] public string City { get; set; } = "";
        [DataMember] public string State { get; set; } = "";
        [DataMember] public string PostalCode { get; set; } = "";
        [DataMember] public string Name { get; set; } = "";
        [DataMember] public string PhoneNumber { get; set; } = "";
        [DataMember] public string Country { get; set; } = "";
    }

    [DataContract]
    public sealed class ActiveOrUpcomingEvent
    {
        [DataMember] public int Id { get; set; }
        [DataMember] public string ImageUrl { get; set; } = "";
        [DataMember] public string Name { get; set; } = "";
        [DataMember] public string CampaignName { get; set; } = "";
        [DataMember] public string CampaignManagedOrganizerName { get; set; } = "";
        [DataMember] public string Description { get; set; } = "";
        [DataMember] public DateTimeOffset StartDate { get; set; }
        [DataMember] public DateTimeOffset EndDate { get; set; }
    }

    [DataContract]
    public sealed class IndexViewModel
    {
        [DataMember] public List<ActiveOrUpcomingEvent> ActiveOrUpcomingEvents { get; set; } = [];
        [DataMember] public ActiveOrUpcomingEvent? FeaturedCampaign { get; set; }
        [DataMember] public bool IsNewAccount { get; set; }
        [DataMember] public bool HasFeaturedCampaign { get; set; }
    }

    [DataContract]
    public sealed class CollectionsOfPrimitives
    {
        [DataMember] public byte[] ByteArray { get; set; } = [];
        [DataMember] public DateTime[] DateTimeArray { get; set; } = [];
        [DataMember] public Dictionary<int, string> Dictionary { get; set; } = [];
        [DataMember] public List<int> ListOfInt { get; set; } = [];
    }

    public static LoginViewModel Login() => new() { Email = "name.familyname@not.com", Password = "abcdefgh123456!@", RememberMe = true };

    public static LocationModel Location() => new()
    {
        Id = 1234,
        Address1 = "The Street Name",
        Address2 = "20/11",
        Address3 = "Apartment 95",
        City = "The City",
        State = "State",
        PostalCode = "abc-12",
        Name = "Nonexisting",
        PhoneNumber = "+0 11 222 333 44",
        Country = "The Greatest",
    };

    public static IndexViewModel Index() => new()
    {
        IsNewAccount = false,
        HasFeaturedCampaign = true,
        FeaturedCampaign = Event(0),
        ActiveOrUpcomingEvents = Enumerable.Range(0, 20).Select(Event).ToList(),
    };

    private static ActiveOrUpcomingEvent Event(int i) => new()
    {
        Id = 10 + i,
        ImageUrl = "https://www.dotnetfoundation.org/theme/img/carousel/foundation-diagram-content.png",
        Name = "Just a name " + i,
        CampaignName = "The very new campaign",
        CampaignManagedOrganizerName = "Name FamilyName",
        Description = new string('d', 100),
        StartDate = new DateTimeOffset(2026, 1, 1, 0, 0, 0, TimeSpan.Zero),
        EndDate = new DateTimeOffset(2026, 12, 31, 0, 0, 0, TimeSpan.Zero),
    };

    public static CollectionsOfPrimitives Primitives() => new()
    {
        ByteArray = Enumerable.Range(0, 1024).Select(i => (byte)i).ToArray(),
        DateTimeArray = Enumerable.Range(0, 100).Select(i => new DateTime(2026, 1, 1, 0, 0, 0, DateTimeKind.Utc).AddDays(i)).ToArray(),
        Dictionary = Enumerable.Range(0, 100).ToDictionary(i => i, i => "value " + i),
        ListOfInt = Enumerable.Range(0, 100).ToList(),
    };
}
