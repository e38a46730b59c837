global using Spanwire.Amqp.Protocol;
global using static Spanwire.Amqp.Tests.TestData;
