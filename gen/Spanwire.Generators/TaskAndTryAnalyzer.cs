using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Operations;

namespace Spanwire.Generators;

/// <summary>
/// The house rules on tasks and Try methods, as build errors in the libraries that reference this project:
/// <list type="bullet">
/// <item>SPW001: no <c>Task.Run</c> or <c>TaskFactory.StartNew</c>: a task the code starts is a field it awaits when it
/// ends (an owned task), or a thread of its own.</item>
/// <item>SPW002: no task dropped: a Task or ValueTask returned by a call is awaited, stored or returned, never discarded
/// (<c>_ = RunAsync()</c> included, which VSTHRD110 accepts).</item>
/// <item>SPW003: no Try result dropped: the bool of a <c>Try...</c> call is checked, or asserted with
/// <c>Debug.Assert</c> where the code knows it holds (TaskCompletionSource's TrySet methods excepted: their false is a
/// settled race, the outcome they exist for).</item>
/// </list>
/// </summary>
[DiagnosticAnalyzer(LanguageNames.CSharp)]
public sealed class TaskAndTryAnalyzer : DiagnosticAnalyzer
{
    internal static readonly DiagnosticDescriptor TaskRun = new(
        "SPW001", "Task.Run starts a task nobody owns",
        "'{0}' starts a task nobody owns: keep it in a field and await it when the owner ends, or run a thread of its own",
        "Spanwire.Reliability", DiagnosticSeverity.Error, isEnabledByDefault: true);

    internal static readonly DiagnosticDescriptor DroppedTask = new(
        "SPW002", "A task is dropped",
        "The {0} returned by '{1}' is dropped: await it, or keep it where its owner awaits it",
        "Spanwire.Reliability", DiagnosticSeverity.Error, isEnabledByDefault: true);

    internal static readonly DiagnosticDescriptor DroppedTry = new(
        "SPW003", "A Try result is dropped",
        "The result of '{0}' is dropped: check it, or Debug.Assert it where it cannot be false",
        "Spanwire.Reliability", DiagnosticSeverity.Error, isEnabledByDefault: true);

    /// <inheritdoc/>
    public override ImmutableArray<DiagnosticDescriptor> SupportedDiagnostics { get; } = [TaskRun, DroppedTask, DroppedTry];

    /// <inheritdoc/>
    public override void Initialize(AnalysisContext context)
    {
        context.ConfigureGeneratedCodeAnalysis(GeneratedCodeAnalysisFlags.None);
        context.EnableConcurrentExecution();
        context.RegisterOperationAction(AnalyzeInvocation, OperationKind.Invocation);
        context.RegisterOperationAction(AnalyzeStatement, OperationKind.ExpressionStatement);
    }

    private static void AnalyzeInvocation(OperationAnalysisContext context)
    {
        IMethodSymbol method = ((IInvocationOperation)context.Operation).TargetMethod;
        string? type = method.ContainingType?.ToDisplayString();
        if ((type == "System.Threading.Tasks.Task" && method.Name == "Run") || (type?.StartsWith("System.Threading.Tasks.TaskFactory", System.StringComparison.Ordinal) == true && method.Name == "StartNew"))
        {
            context.ReportDiagnostic(Diagnostic.Create(TaskRun, context.Operation.Syntax.GetLocation(), $"{method.ContainingType!.Name}.{method.Name}"));
        }
    }

    private static void AnalyzeStatement(OperationAnalysisContext context)
    {
        IOperation expression = ((IExpressionStatementOperation)context.Operation).Operation;
        if (expression is ISimpleAssignmentOperation { Target: IDiscardOperation } discard)
        {
            expression = discard.Value;
        }

        while (expression is IConversionOperation conversion)
        {
            expression = conversion.Operand;
        }

        if (expression is not IInvocationOperation invocation)
        {
            return;
        }

        IMethodSymbol method = invocation.TargetMethod;
        if (IsTask(method.ReturnType) is { } kind)
        {
            context.ReportDiagnostic(Diagnostic.Create(DroppedTask, invocation.Syntax.GetLocation(), kind, method.Name));
        }
        else if (method.Name.StartsWith("Try", System.StringComparison.Ordinal) && method.ReturnType.SpecialType == SpecialType.System_Boolean
            && method.ContainingType?.Name != "TaskCompletionSource") // TrySet... false is a race already settled: the intended outcome
        {
            context.ReportDiagnostic(Diagnostic.Create(DroppedTry, invocation.Syntax.GetLocation(), method.Name));
        }
    }

    private static string? IsTask(ITypeSymbol type)
    {
        string name = type.OriginalDefinition.ToDisplayString();
        return name switch
        {
            "System.Threading.Tasks.Task" or "System.Threading.Tasks.Task<TResult>" => "Task",
            "System.Threading.Tasks.ValueTask" or "System.Threading.Tasks.ValueTask<TResult>" => "ValueTask",
            _ => null,
        };
    }
}
