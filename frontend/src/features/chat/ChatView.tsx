import { AgentPanel } from '../tasks/AgentPanel';
import { ConversationBar } from '../tasks/ConversationBar';
import { ChatHeader, DemoBanner } from './ChatHeader';
import { Composer } from './Composer';
import { MessageList } from './MessageList';
import { ConversationPlan } from '../plan/ConversationPlan';

export function ChatView({ conversationId }: { conversationId: string }) {
  return (
    <section className="chat" aria-label="Chat">
      <ChatHeader conversationId={conversationId} />
      <ConversationBar conversationId={conversationId} />
      <DemoBanner />
      <ConversationPlan conversationId={conversationId} />
      <MessageList conversationId={conversationId} />
      <div className="chat-footer">
        <AgentPanel conversationId={conversationId} />
        <Composer key={conversationId} conversationId={conversationId} />
      </div>
    </section>
  );
}
