using System.Security.Cryptography.X509Certificates;
using Spanwire.Amqp.Client;

namespace Spanwire.Amqp.IntegrationTests;

/// <summary>
/// A RabbitMQ node of the tests' own with a TLS listener (scripts/rabbitmq.sh start DIR --tls), and certificates the
/// script makes with openssl: a test CA, the server's for localhost, a client's for user spanwire-client, one from a
/// CA the broker does not trust, one for a user the broker does not know.
/// </summary>
public sealed class TlsNode : PrivateNode
{
    public TlsNode()
        : base(" --tls")
    {
    }

    public string PlainUri => Uri;

    public string TlsUri => StartLines[1];

    public string Certificates => Path.Combine(Folder, "tls");

    /// <summary>amqps:// options that trust the test CA (and nothing else), optionally with a client certificate.</summary>
    public AmqpConnectionOptions Options(string? clientCertificate = null, AmqpAuthMechanism mechanism = AmqpAuthMechanism.Plain)
    {
        AmqpConnectionOptions options = AmqpConnectionOptions.Parse(TlsUri);
        var trust = new X509ChainPolicy { TrustMode = X509ChainTrustMode.CustomRootTrust, RevocationMode = X509RevocationMode.NoCheck };
        trust.CustomTrustStore.Add(X509Certificate2.CreateFromPem(File.ReadAllText(Path.Combine(Certificates, "ca.pem"))));
        options.Tls!.CertificateChainPolicy = trust;
        if (clientCertificate is not null)
        {
            options.Tls.ClientCertificates =
                [X509Certificate2.CreateFromPemFile(Path.Combine(Certificates, $"{clientCertificate}.pem"), Path.Combine(Certificates, $"{clientCertificate}.key"))];
        }

        options.AuthMechanism = mechanism;
        return options;
    }
}
