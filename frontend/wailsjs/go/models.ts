export namespace agent {
	
	export class StopResult {
	    stopped: boolean;
	    task: chat.Task;
	    message: string;
	
	    static createFrom(source: any = {}) {
	        return new StopResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.stopped = source["stopped"];
	        this.task = this.convertValues(source["task"], chat.Task);
	        this.message = source["message"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

export namespace app {
	
	export class CheckpointStorage {
	    usedBytes: number;
	    limitBytes: number;
	
	    static createFrom(source: any = {}) {
	        return new CheckpointStorage(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.usedBytes = source["usedBytes"];
	        this.limitBytes = source["limitBytes"];
	    }
	}
	export class ModelInfo {
	    model: string;
	    baseUrl: string;
	    demo: boolean;
	    source: string;
	    preset: string;
	
	    static createFrom(source: any = {}) {
	        return new ModelInfo(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.model = source["model"];
	        this.baseUrl = source["baseUrl"];
	        this.demo = source["demo"];
	        this.source = source["source"];
	        this.preset = source["preset"];
	    }
	}
	export class ProviderInput {
	    preset: string;
	    baseUrl: string;
	    model: string;
	    apiKey: string;
	    keepKey: boolean;
	
	    static createFrom(source: any = {}) {
	        return new ProviderInput(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.preset = source["preset"];
	        this.baseUrl = source["baseUrl"];
	        this.model = source["model"];
	        this.apiKey = source["apiKey"];
	        this.keepKey = source["keepKey"];
	    }
	}
	export class ProviderView {
	    preset: string;
	    baseUrl: string;
	    model: string;
	    hasKey: boolean;
	    keysFor: string[];
	    keyStorage: string;
	    keyNote: string;
	    envOverride: boolean;
	
	    static createFrom(source: any = {}) {
	        return new ProviderView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.preset = source["preset"];
	        this.baseUrl = source["baseUrl"];
	        this.model = source["model"];
	        this.hasKey = source["hasKey"];
	        this.keysFor = source["keysFor"];
	        this.keyStorage = source["keyStorage"];
	        this.keyNote = source["keyNote"];
	        this.envOverride = source["envOverride"];
	    }
	}
	export class Status {
	    ready: boolean;
	    readOnly: boolean;
	    message?: string;
	    dataDir: string;
	
	    static createFrom(source: any = {}) {
	        return new Status(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.ready = source["ready"];
	        this.readOnly = source["readOnly"];
	        this.message = source["message"];
	        this.dataDir = source["dataDir"];
	    }
	}
	export class WorkspaceInfo {
	    path: string;
	    default: boolean;
	    missing: boolean;
	
	    static createFrom(source: any = {}) {
	        return new WorkspaceInfo(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.default = source["default"];
	        this.missing = source["missing"];
	    }
	}

}

export namespace chat {
	
	export class Limits {
	    maxSteps: number;
	    maxMinutes: number;
	    maxCostUsd: number;
	
	    static createFrom(source: any = {}) {
	        return new Limits(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.maxSteps = source["maxSteps"];
	        this.maxMinutes = source["maxMinutes"];
	        this.maxCostUsd = source["maxCostUsd"];
	    }
	}
	export class AgentDefinition {
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
	    opening: string;
	    builtIn: boolean;
	    // Go type: time
	    createdAt: any;
	    // Go type: time
	    updatedAt: any;
	
	    static createFrom(source: any = {}) {
	        return new AgentDefinition(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.name = source["name"];
	        this.description = source["description"];
	        this.color = source["color"];
	        this.instructions = source["instructions"];
	        this.allTools = source["allTools"];
	        this.tools = source["tools"];
	        this.model = source["model"];
	        this.limits = this.convertValues(source["limits"], Limits);
	        this.mode = source["mode"];
	        this.canUserType = source["canUserType"];
	        this.allowEarlyTermination = source["allowEarlyTermination"];
	        this.opening = source["opening"];
	        this.builtIn = source["builtIn"];
	        this.createdAt = this.convertValues(source["createdAt"], null);
	        this.updatedAt = this.convertValues(source["updatedAt"], null);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Approval {
	    callId: string;
	    tool: string;
	    risk: string;
	    arguments: string;
	    preview?: string;
	    address?: string;
	    sandbox?: string;
	
	    static createFrom(source: any = {}) {
	        return new Approval(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.callId = source["callId"];
	        this.tool = source["tool"];
	        this.risk = source["risk"];
	        this.arguments = source["arguments"];
	        this.preview = source["preview"];
	        this.address = source["address"];
	        this.sandbox = source["sandbox"];
	    }
	}
	export class ChangedFile {
	    path: string;
	    change: string;
	
	    static createFrom(source: any = {}) {
	        return new ChangedFile(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.change = source["change"];
	    }
	}
	export class Conversation {
	    id: string;
	    title: string;
	    titleSet: boolean;
	    mode: string;
	    workspace: string;
	    model: string;
	    agentId: string;
	    // Go type: time
	    createdAt: any;
	    // Go type: time
	    updatedAt: any;
	
	    static createFrom(source: any = {}) {
	        return new Conversation(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.title = source["title"];
	        this.titleSet = source["titleSet"];
	        this.mode = source["mode"];
	        this.workspace = source["workspace"];
	        this.model = source["model"];
	        this.agentId = source["agentId"];
	        this.createdAt = this.convertValues(source["createdAt"], null);
	        this.updatedAt = this.convertValues(source["updatedAt"], null);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ModeDecision {
	    by: string;
	    reason?: string;
	
	    static createFrom(source: any = {}) {
	        return new ModeDecision(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.by = source["by"];
	        this.reason = source["reason"];
	    }
	}
	export class PlanStep {
	    title: string;
	    status: string;
	
	    static createFrom(source: any = {}) {
	        return new PlanStep(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.title = source["title"];
	        this.status = source["status"];
	    }
	}
	export class Plan {
	    taskId: string;
	    conversationId: string;
	    revision: number;
	    steps: PlanStep[];
	    note?: string;
	    // Go type: time
	    updatedAt: any;
	
	    static createFrom(source: any = {}) {
	        return new Plan(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.taskId = source["taskId"];
	        this.conversationId = source["conversationId"];
	        this.revision = source["revision"];
	        this.steps = this.convertValues(source["steps"], PlanStep);
	        this.note = source["note"];
	        this.updatedAt = this.convertValues(source["updatedAt"], null);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Usage {
	    promptTokens: number;
	    completionTokens: number;
	    totalTokens: number;
	
	    static createFrom(source: any = {}) {
	        return new Usage(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.promptTokens = source["promptTokens"];
	        this.completionTokens = source["completionTokens"];
	        this.totalTokens = source["totalTokens"];
	    }
	}
	export class InputHint {
	    disabled?: boolean;
	    placeholder?: string;
	
	    static createFrom(source: any = {}) {
	        return new InputHint(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.disabled = source["disabled"];
	        this.placeholder = source["placeholder"];
	    }
	}
	export class FormField {
	    name: string;
	    label: string;
	    type: string;
	    options?: string[];
	    required?: boolean;
	    placeholder?: string;
	    min?: number;
	    max?: number;
	
	    static createFrom(source: any = {}) {
	        return new FormField(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.label = source["label"];
	        this.type = source["type"];
	        this.options = source["options"];
	        this.required = source["required"];
	        this.placeholder = source["placeholder"];
	        this.min = source["min"];
	        this.max = source["max"];
	    }
	}
	export class Task {
	    id: string;
	    conversationId: string;
	    mode: string;
	    status: string;
	    originalPrompt: string;
	    stepCount: number;
	    // Go type: time
	    startedAt: any;
	    // Go type: time
	    endedAt?: any;
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
	
	    static createFrom(source: any = {}) {
	        return new Task(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.conversationId = source["conversationId"];
	        this.mode = source["mode"];
	        this.status = source["status"];
	        this.originalPrompt = source["originalPrompt"];
	        this.stepCount = source["stepCount"];
	        this.startedAt = this.convertValues(source["startedAt"], null);
	        this.endedAt = this.convertValues(source["endedAt"], null);
	        this.pendingQuestion = source["pendingQuestion"];
	        this.pendingChoices = source["pendingChoices"];
	        this.pendingMultiple = source["pendingMultiple"];
	        this.pendingAllowOther = source["pendingAllowOther"];
	        this.pendingFields = this.convertValues(source["pendingFields"], FormField);
	        this.input = this.convertValues(source["input"], InputHint);
	        this.agentId = source["agentId"];
	        this.switchedFrom = source["switchedFrom"];
	        this.errorMessage = source["errorMessage"];
	        this.currentTool = source["currentTool"];
	        this.rev = source["rev"];
	        this.currentCallId = source["currentCallId"];
	        this.usage = this.convertValues(source["usage"], Usage);
	        this.model = source["model"];
	        this.summary = source["summary"];
	        this.pendingApproval = this.convertValues(source["pendingApproval"], Approval);
	        this.pauseReason = source["pauseReason"];
	        this.limits = this.convertValues(source["limits"], Limits);
	        this.costUsd = source["costUsd"];
	        this.activeMs = source["activeMs"];
	        this.contextTokens = source["contextTokens"];
	        this.contextLimit = source["contextLimit"];
	        this.plan = this.convertValues(source["plan"], Plan);
	        this.reflecting = source["reflecting"];
	        this.reflections = source["reflections"];
	        this.decision = this.convertValues(source["decision"], ModeDecision);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ConversationSummary {
	    id: string;
	    title: string;
	    titleSet: boolean;
	    mode: string;
	    workspace: string;
	    model: string;
	    agentId: string;
	    // Go type: time
	    createdAt: any;
	    // Go type: time
	    updatedAt: any;
	    activeTask?: Task;
	
	    static createFrom(source: any = {}) {
	        return new ConversationSummary(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.title = source["title"];
	        this.titleSet = source["titleSet"];
	        this.mode = source["mode"];
	        this.workspace = source["workspace"];
	        this.model = source["model"];
	        this.agentId = source["agentId"];
	        this.createdAt = this.convertValues(source["createdAt"], null);
	        this.updatedAt = this.convertValues(source["updatedAt"], null);
	        this.activeTask = this.convertValues(source["activeTask"], Task);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ConversationPage {
	    items: ConversationSummary[];
	    nextCursor: string;
	
	    static createFrom(source: any = {}) {
	        return new ConversationPage(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.items = this.convertValues(source["items"], ConversationSummary);
	        this.nextCursor = source["nextCursor"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class ToolCall {
	    id: string;
	    name: string;
	    arguments: string;
	
	    static createFrom(source: any = {}) {
	        return new ToolCall(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.name = source["name"];
	        this.arguments = source["arguments"];
	    }
	}
	export class Message {
	    id: string;
	    conversationId: string;
	    taskId?: string;
	    role: string;
	    content: string;
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
	    // Go type: time
	    createdAt: any;
	
	    static createFrom(source: any = {}) {
	        return new Message(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.conversationId = source["conversationId"];
	        this.taskId = source["taskId"];
	        this.role = source["role"];
	        this.content = source["content"];
	        this.reasoning = source["reasoning"];
	        this.reasoningMs = source["reasoningMs"];
	        this.toolCalls = this.convertValues(source["toolCalls"], ToolCall);
	        this.toolCallId = source["toolCallId"];
	        this.toolName = source["toolName"];
	        this.isError = source["isError"];
	        this.outcome = source["outcome"];
	        this.delivery = source["delivery"];
	        this.step = source["step"];
	        this.streaming = source["streaming"];
	        this.usage = this.convertValues(source["usage"], Usage);
	        this.costUsd = source["costUsd"];
	        this.summaryId = source["summaryId"];
	        this.parentId = source["parentId"];
	        this.versions = source["versions"];
	        this.version = source["version"];
	        this.offBranch = source["offBranch"];
	        this.seq = source["seq"];
	        this.rev = source["rev"];
	        this.createdAt = this.convertValues(source["createdAt"], null);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ConversationView {
	    conversation: Conversation;
	    messages: Message[];
	    tasks: Task[];
	    activeTask?: Task;
	    usage: Usage;
	    costUsd: number;
	    hasOlder?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new ConversationView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.conversation = this.convertValues(source["conversation"], Conversation);
	        this.messages = this.convertValues(source["messages"], Message);
	        this.tasks = this.convertValues(source["tasks"], Task);
	        this.activeTask = this.convertValues(source["activeTask"], Task);
	        this.usage = this.convertValues(source["usage"], Usage);
	        this.costUsd = source["costUsd"];
	        this.hasOlder = source["hasOlder"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Fact {
	    id: string;
	    key: string;
	    value: string;
	    scope: string;
	    conversationId: string;
	    // Go type: time
	    createdAt: any;
	    // Go type: time
	    updatedAt: any;
	
	    static createFrom(source: any = {}) {
	        return new Fact(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.key = source["key"];
	        this.value = source["value"];
	        this.scope = source["scope"];
	        this.conversationId = source["conversationId"];
	        this.createdAt = this.convertValues(source["createdAt"], null);
	        this.updatedAt = this.convertValues(source["updatedAt"], null);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class FilesChanged {
	    taskId: string;
	    undone: boolean;
	    pruned: boolean;
	    files: ChangedFile[];
	
	    static createFrom(source: any = {}) {
	        return new FilesChanged(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.taskId = source["taskId"];
	        this.undone = source["undone"];
	        this.pruned = source["pruned"];
	        this.files = this.convertValues(source["files"], ChangedFile);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	
	
	export class MCPServer {
	    id: string;
	    name: string;
	    transport: string;
	    command?: string;
	    args?: string[];
	    env?: Record<string, string>;
	    url?: string;
	    enabled: boolean;
	    toolRisks?: Record<string, string>;
	    // Go type: time
	    createdAt: any;
	    // Go type: time
	    updatedAt: any;
	
	    static createFrom(source: any = {}) {
	        return new MCPServer(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.name = source["name"];
	        this.transport = source["transport"];
	        this.command = source["command"];
	        this.args = source["args"];
	        this.env = source["env"];
	        this.url = source["url"];
	        this.enabled = source["enabled"];
	        this.toolRisks = source["toolRisks"];
	        this.createdAt = this.convertValues(source["createdAt"], null);
	        this.updatedAt = this.convertValues(source["updatedAt"], null);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class MessagePage {
	    messages: Message[];
	    hasOlder: boolean;
	    hasNewer: boolean;
	
	    static createFrom(source: any = {}) {
	        return new MessagePage(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.messages = this.convertValues(source["messages"], Message);
	        this.hasOlder = source["hasOlder"];
	        this.hasNewer = source["hasNewer"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	
	
	export class Price {
	    inputPerMTok: number;
	    outputPerMTok: number;
	
	    static createFrom(source: any = {}) {
	        return new Price(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.inputPerMTok = source["inputPerMTok"];
	        this.outputPerMTok = source["outputPerMTok"];
	    }
	}
	export class ProviderConfig {
	    preset: string;
	    baseUrl: string;
	    model: string;
	
	    static createFrom(source: any = {}) {
	        return new ProviderConfig(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.preset = source["preset"];
	        this.baseUrl = source["baseUrl"];
	        this.model = source["model"];
	    }
	}
	export class SnippetPart {
	    text: string;
	    match?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new SnippetPart(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.text = source["text"];
	        this.match = source["match"];
	    }
	}
	export class SearchHit {
	    conversationId: string;
	    conversationTitle: string;
	    messageId: string;
	    role: string;
	    snippet: SnippetPart[];
	    // Go type: time
	    createdAt: any;
	
	    static createFrom(source: any = {}) {
	        return new SearchHit(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.conversationId = source["conversationId"];
	        this.conversationTitle = source["conversationTitle"];
	        this.messageId = source["messageId"];
	        this.role = source["role"];
	        this.snippet = this.convertValues(source["snippet"], SnippetPart);
	        this.createdAt = this.convertValues(source["createdAt"], null);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Settings {
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
	
	    static createFrom(source: any = {}) {
	        return new Settings(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.autoApprove = source["autoApprove"];
	        this.limits = this.convertValues(source["limits"], Limits);
	        this.stepDelayMs = source["stepDelayMs"];
	        this.prices = this.convertValues(source["prices"], Price, true);
	        this.contextLengths = source["contextLengths"];
	        this.provider = this.convertValues(source["provider"], ProviderConfig);
	        this.systemPrompt = source["systemPrompt"];
	        this.memoryEnabled = source["memoryEnabled"];
	        this.notifications = source["notifications"];
	        this.mcpCallTimeoutSec = source["mcpCallTimeoutSec"];
	        this.checkpointLimitMb = source["checkpointLimitMb"];
	        this.checkpointExclude = source["checkpointExclude"];
	        this.defaultMode = source["defaultMode"];
	        this.reflectionRounds = source["reflectionRounds"];
	        this.autoAskModel = source["autoAskModel"];
	        this.showThinking = source["showThinking"];
	        this.modelFirstByteTimeoutSec = source["modelFirstByteTimeoutSec"];
	        this.modelIdleTimeoutSec = source["modelIdleTimeoutSec"];
	        this.reasoningEffort = source["reasoningEffort"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class Summary {
	    id: string;
	    conversationId: string;
	    throughSeq: number;
	    text: string;
	    toolLog: string;
	    // Go type: time
	    createdAt: any;
	
	    static createFrom(source: any = {}) {
	        return new Summary(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.conversationId = source["conversationId"];
	        this.throughSeq = source["throughSeq"];
	        this.text = source["text"];
	        this.toolLog = source["toolLog"];
	        this.createdAt = this.convertValues(source["createdAt"], null);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	
	export class UndoOutcome {
	    restored: string[];
	    kept: string[];
	    conflicts: string[];
	
	    static createFrom(source: any = {}) {
	        return new UndoOutcome(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.restored = source["restored"];
	        this.kept = source["kept"];
	        this.conflicts = source["conflicts"];
	    }
	}

}

export namespace mcp {
	
	export class ToolInfo {
	    name: string;
	    fullName: string;
	    description: string;
	    risk: string;
	    hintRisk: string;
	    refused?: string;
	
	    static createFrom(source: any = {}) {
	        return new ToolInfo(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.fullName = source["fullName"];
	        this.description = source["description"];
	        this.risk = source["risk"];
	        this.hintRisk = source["hintRisk"];
	        this.refused = source["refused"];
	    }
	}
	export class State {
	    server: chat.MCPServer;
	    status: string;
	    reason?: string;
	    tools: ToolInfo[];
	
	    static createFrom(source: any = {}) {
	        return new State(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.server = this.convertValues(source["server"], chat.MCPServer);
	        this.status = source["status"];
	        this.reason = source["reason"];
	        this.tools = this.convertValues(source["tools"], ToolInfo);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

export namespace providers {
	
	export class Preset {
	    id: string;
	    name: string;
	    baseUrl: string;
	    needsKey: boolean;
	    local: boolean;
	    model?: string;
	
	    static createFrom(source: any = {}) {
	        return new Preset(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.name = source["name"];
	        this.baseUrl = source["baseUrl"];
	        this.needsKey = source["needsKey"];
	        this.local = source["local"];
	        this.model = source["model"];
	    }
	}
	export class Verdict {
	    ok: boolean;
	    kind: string;
	    message: string;
	    modelCount: number;
	    models?: string[];
	
	    static createFrom(source: any = {}) {
	        return new Verdict(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.ok = source["ok"];
	        this.kind = source["kind"];
	        this.message = source["message"];
	        this.modelCount = source["modelCount"];
	        this.models = source["models"];
	    }
	}

}

