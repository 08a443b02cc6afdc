import { AgentPanel } from '../agent/AgentPanel';
import { ConversationBar } from '../agent/ConversationBar';
import { ChatHeader, DemoBanner } from './ChatHeader';
import { Composer } from './Composer';
import { MessageList } from './MessageList';

export function ChatView({ conversationId }: { conversationId: string }) {
  return (
    <section className="chat" aria-label="Chat">
      <ChatHeader conversationId={conversationId} />
      <ConversationBar conversationId={conversationId} />
      <DemoBanner />
      <MessageList conversationId={conversationId} />
      <div className="chat-footer">
        <AgentPanel conversationId={conversationId} />
        <Composer key={conversationId} conversationId={conversationId} />
      </div>
    </section>
  );
}
