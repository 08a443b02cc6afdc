export namespace agent {
	
	export interface StopResult {
	    stopped: boolean;
	    task: chat.Task;
	    message: string;
	}
	export interface Variation {
	    conversationId: string;
	    replyId: string;
	    index: number;
	    model: string;
	    text: string;
	    rev: number;
	    done: boolean;
	    stopped?: boolean;
	    error?: string;
	    elapsedMs: number;
	    usage: chat.Usage;
	    costUsd: number;
	    message?: chat.Message;
	}
	export interface VariationsRequest {
	    count: number;
	    models: string[];
	}

}

export namespace app {
	
	export interface AboutInfo {
	    version: string;
	    dataDir: string;
	    logFile: string;
	    schemaVersion: number;
	    os: string;
	}
	export interface AllFacts {
	    facts: chat.Fact[];
	    titles: Record<string, string>;
	}
	export interface CheckpointStorage {
	    usedBytes: number;
	    limitBytes: number;
	}
	export interface WorkspaceInfo {
	    path: string;
	    default: boolean;
	    missing: boolean;
	}
	export interface ModelInfo {
	    model: string;
	    baseUrl: string;
	    demo: boolean;
	    source: string;
	    preset: string;
	}
	export interface Status {
	    ready: boolean;
	    readOnly: boolean;
	    message?: string;
	    dataDir: string;
	}
	export interface FirstScreen {
	    status: Status;
	    modelInfo?: ModelInfo;
	    showThinking?: boolean;
	    agents?: chat.AgentDefinition[];
	    conversations?: chat.ConversationPage;
	    open?: chat.ConversationView;
	    workspace?: WorkspaceInfo;
	}
	export interface FirstScreenSnapshot {
	    html: string;
	    width: number;
	    height: number;
	    listLimit: number;
	    messageLimit: number;
	}
	
	export interface ProviderInput {
	    preset: string;
	    baseUrl: string;
	    model: string;
	    apiKey: string;
	    keepKey: boolean;
	}
	export interface ProviderView {
	    preset: string;
	    baseUrl: string;
	    model: string;
	    hasKey: boolean;
	    keysFor: string[];
	    keyStorage: string;
	    keyNote: string;
	    envOverride: boolean;
	}
	

}

export namespace chat {
	
	export interface Limits {
	    maxSteps: number;
	    maxMinutes: number;
	    maxCostUsd: number;
	}
	export interface AgentDefinition {
	    id: string;
	    name: string;
	    description: string;
	    color: string;
	    instructions: string;
	    allTools: boolean;
	    tools: string[];
	    model: string;
	    limits: Limits;
	    mode: string;
	    canUserType: boolean;
	    allowEarlyTermination: boolean;
	    showHistory: boolean;
	    showEndButton: boolean;
	    typeDuringOpening: boolean;
	    opening: string;
	    builtIn: boolean;
	    createdAt: string;
	    updatedAt: string;
	}
	export interface AgentStats {
	    agentId: string;
	    conversations: number;
	    completedTasks: number;
	    lastUsedAt?: string;
	}
	export interface Approval {
	    callId: string;
	    tool: string;
	    risk: string;
	    arguments: string;
	    preview?: string;
	    address?: string;
	    sandbox?: string;
	}
	export interface Attachment {
	    id: string;
	    name: string;
	    kind: string;
	    mime: string;
	    size: number;
	    width?: number;
	    height?: number;
	}
	export interface ChangedFile {
	    path: string;
	    change: string;
	}
	export interface Conversation {
	    id: string;
	    title: string;
	    titleSet: boolean;
	    mode: string;
	    workspace: string;
	    model: string;
	    agentId: string;
	    createdAt: string;
	    updatedAt: string;
	    state: string;
	    endedBy?: string;
	    endReason?: string;
	    archived: boolean;
	}
	export interface ModeDecision {
	    by: string;
	    reason?: string;
	}
	export interface PlanStep {
	    title: string;
	    status: string;
	}
	export interface Plan {
	    taskId: string;
	    conversationId: string;
	    revision: number;
	    steps: PlanStep[];
	    note?: string;
	    updatedAt: string;
	}
	export interface Usage {
	    promptTokens: number;
	    completionTokens: number;
	    totalTokens: number;
	    cacheReadTokens: number;
	    cacheWriteTokens: number;
	}
	export interface InputHint {
	    disabled?: boolean;
	    placeholder?: string;
	    show_history?: boolean;
	    show_end_button?: boolean;
	}
	export interface FormField {
	    name: string;
	    label: string;
	    type: string;
	    options?: string[];
	    required?: boolean;
	    placeholder?: string;
	    min?: number;
	    max?: number;
	}
	export interface Task {
	    id: string;
	    conversationId: string;
	    mode: string;
	    status: string;
	    originalPrompt: string;
	    stepCount: number;
	    startedAt: string;
	    endedAt?: string;
	    pendingQuestion?: string;
	    pendingChoices?: string[];
	    pendingMultiple?: boolean;
	    pendingAllowOther?: boolean;
	    pendingFields?: FormField[];
	    input?: InputHint;
	    agentId: string;
	    switchedFrom?: string;
	    errorMessage?: string;
	    currentTool?: string;
	    rev: number;
	    currentCallId?: string;
	    usage: Usage;
	    model: string;
	    summary?: string;
	    pendingApproval?: Approval;
	    pauseReason?: string;
	    limits: Limits;
	    costUsd: number;
	    activeMs: number;
	    contextTokens: number;
	    contextLimit: number;
	    plan?: Plan;
	    reflecting?: boolean;
	    reflections?: number;
	    decision?: ModeDecision;
	}
	export interface ConversationSummary {
	    id: string;
	    title: string;
	    titleSet: boolean;
	    mode: string;
	    workspace: string;
	    model: string;
	    agentId: string;
	    createdAt: string;
	    updatedAt: string;
	    state: string;
	    endedBy?: string;
	    endReason?: string;
	    archived: boolean;
	    activeTask?: Task;
	}
	export interface ConversationPage {
	    items: ConversationSummary[];
	    nextCursor: string;
	}
	
	export interface ToolCall {
	    id: string;
	    name: string;
	    arguments: string;
	}
	export interface Message {
	    id: string;
	    conversationId: string;
	    taskId?: string;
	    role: string;
	    content: string;
	    attachments?: Attachment[];
	    reasoning?: string;
	    reasoningMs?: number;
	    toolCalls?: ToolCall[];
	    toolCallId?: string;
	    toolName?: string;
	    isError?: boolean;
	    outcome?: string;
	    delivery?: string;
	    step?: number;
	    streaming?: boolean;
	    usage?: Usage;
	    costUsd?: number;
	    summaryId?: string;
	    parentId?: string;
	    versions?: number;
	    version?: number;
	    offBranch?: number;
	    seq: number;
	    rev: number;
	    createdAt: string;
	}
	export interface ConversationView {
	    conversation: Conversation;
	    messages: Message[];
	    tasks: Task[];
	    activeTask?: Task;
	    usage: Usage;
	    costUsd: number;
	    hasOlder?: boolean;
	}
	export interface Fact {
	    id: string;
	    key: string;
	    value: string;
	    scope: string;
	    conversationId: string;
	    createdAt: string;
	    updatedAt: string;
	}
	export interface FilesChanged {
	    taskId: string;
	    undone: boolean;
	    pruned: boolean;
	    dismissed: boolean;
	    files: ChangedFile[];
	    notUndoable: string[];
	}
	
	
	
	export interface MCPServer {
	    id: string;
	    name: string;
	    transport: string;
	    command?: string;
	    args?: string[];
	    env?: Record<string, string>;
	    url?: string;
	    enabled: boolean;
	    toolRisks?: Record<string, string>;
	    createdAt: string;
	    updatedAt: string;
	}
	
	export interface MessagePage {
	    messages: Message[];
	    hasOlder: boolean;
	    hasNewer: boolean;
	}
	
	
	
	export interface Price {
	    inputPerMTok: number;
	    outputPerMTok: number;
	}
	export interface ProviderConfig {
	    preset: string;
	    baseUrl: string;
	    model: string;
	}
	export interface SavedPrompt {
	    id: string;
	    name: string;
	    text: string;
	    createdAt: string;
	    updatedAt: string;
	}
	export interface SnippetPart {
	    text: string;
	    match?: boolean;
	}
	export interface SearchHit {
	    conversationId: string;
	    conversationTitle: string;
	    messageId: string;
	    role: string;
	    snippet: SnippetPart[];
	    createdAt: string;
	}
	export interface Settings {
	    autoApprove: Record<string, boolean>;
	    limits: Limits;
	    stepDelayMs: number;
	    prices: Record<string, Price>;
	    contextLengths: Record<string, number>;
	    provider: ProviderConfig;
	    systemPrompt: string;
	    memoryEnabled: boolean;
	    notifications: boolean;
	    mcpCallTimeoutSec: number;
	    checkpointLimitMb: number;
	    checkpointExclude: string[];
	    defaultMode: string;
	    reflectionRounds: number;
	    autoAskModel: boolean;
	    showThinking: boolean;
	    modelFirstByteTimeoutSec: number;
	    modelIdleTimeoutSec: number;
	    reasoningEffort: Record<string, string>;
	}
	
	export interface Summary {
	    id: string;
	    conversationId: string;
	    throughSeq: number;
	    text: string;
	    toolLog: string;
	    createdAt: string;
	}
	
	
	export interface UndoOutcome {
	    restored: string[];
	    kept: string[];
	    conflicts: string[];
	}

}

export namespace mcp {
	
	export interface ToolInfo {
	    name: string;
	    fullName: string;
	    description: string;
	    risk: string;
	    hintRisk: string;
	    refused?: string;
	}
	export interface State {
	    server: chat.MCPServer;
	    status: string;
	    reason?: string;
	    tools: ToolInfo[];
	}

}

export namespace providers {
	
	export interface Preset {
	    id: string;
	    name: string;
	    baseUrl: string;
	    needsKey: boolean;
	    local: boolean;
	    model?: string;
	}
	export interface Verdict {
	    ok: boolean;
	    kind: string;
	    message: string;
	    modelCount: number;
	    models?: string[];
	}

}

