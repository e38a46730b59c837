namespace Spanwire.Amqp.Client;

/// <summary>A user name and password (or token) for one login.</summary>
/// <param name="UserName">The user name.</param>
/// <param name="Password">The password, or a token such as an OAuth 2 access token. Never written to any message.</param>
public sealed record AmqpCredentials(string UserName, string Password)
{
    /// <summary>The user name and a redacted password, so that logging the record never shows the secret.</summary>
    /// <returns>The user name, with the password hidden.</returns>
    public override string ToString() => $"AmqpCredentials {{ UserName = {UserName}, Password = *** }}";
}

/// <summary>
/// Supplies the credentials for each login: the connection asks it on every connect and every recovery, so a
/// password or token rotated while the client runs is the one the next login uses.
/// </summary>
/// <example>
/// <code>
/// sealed class TokenProvider(ITokenSource tokens) : IAmqpCredentialsProvider
/// {
///     public async ValueTask&lt;AmqpCredentials&gt; GetCredentialsAsync(CancellationToken cancellationToken) =>
///         new("client-id", await tokens.GetAccessTokenAsync(cancellationToken));
/// }
///
/// options.CredentialsProvider = new TokenProvider(tokens);
/// </code>
/// </example>
public interface IAmqpCredentialsProvider
{
    /// <summary>The credentials for the login about to happen.</summary>
    /// <param name="cancellationToken">Cancels with the connect or recovery attempt (its connect timeout included).</param>
    /// <returns>The user name and password to log in with.</returns>
    ValueTask<AmqpCredentials> GetCredentialsAsync(CancellationToken cancellationToken);
}

/// <summary>Credentials providers made from a delegate.</summary>
public static class AmqpCredentialsProvider
{
    /// <summary>A provider that calls <paramref name="getCredentials"/> before every login.</summary>
    /// <param name="getCredentials">Returns the credentials for the login about to happen (read a rotated secret, fetch a token).</param>
    /// <returns>The provider, for <see cref="AmqpConnectionOptions.CredentialsProvider"/>.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="getCredentials"/> is null.</exception>
    public static IAmqpCredentialsProvider Create(Func<CancellationToken, ValueTask<AmqpCredentials>> getCredentials)
    {
        ArgumentNullException.ThrowIfNull(getCredentials);
        return new DelegateProvider(getCredentials);
    }

    private sealed class DelegateProvider(Func<CancellationToken, ValueTask<AmqpCredentials>> getCredentials) : IAmqpCredentialsProvider
    {
        public ValueTask<AmqpCredentials> GetCredentialsAsync(CancellationToken cancellationToken) => getCredentials(cancellationToken);
    }
}
