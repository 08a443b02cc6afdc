import { ChatHeader, DemoBanner } from './ChatHeader';
import { Composer } from './Composer';
import { MessageList } from './MessageList';
import { StatusLine } from './StatusLine';

export function ChatView({ conversationId }: { conversationId: string }) {
  return (
    <section className="chat" aria-label="Chat">
      <ChatHeader conversationId={conversationId} />
      <DemoBanner />
      <MessageList conversationId={conversationId} />
      <div className="chat-footer">
        <StatusLine conversationId={conversationId} />
        <Composer key={conversationId} conversationId={conversationId} />
      </div>
    </section>
  );
}
