// Picks the component for a transcript item. Memoised: the reducer keeps the identity of
// untouched items, so a streamed chunk re-renders only the item it grew.
import type { TranscriptItem } from "../../../common/panel-state/types";
import { memo } from "../memo";
import { AgentMessage } from "./AgentMessage";
import { Compaction } from "./Compaction";
import { LearnedCard } from "./LearnedCard";
import { Notice } from "./Notice";
import { PermissionCard } from "./PermissionCard";
import { QuestionCard } from "./QuestionCard";
import { ReviewCard } from "./ReviewCard";
import { SteerNote } from "./SteerNote";
import { Thought } from "./Thought";
import { ToolCard } from "./ToolCard";
import { UserMessage } from "./UserMessage";

function ItemBody({ item, streaming }: { item: TranscriptItem; streaming: boolean }) {
  switch (item.kind) {
    case "user":
      return <UserMessage item={item} />;
    case "agent":
      return <AgentMessage item={item} streaming={streaming} />;
    case "thought":
      return <Thought item={item} streaming={streaming} />;
    case "tool":
      return <ToolCard item={item} />;
    case "permission":
      // An edit's decision shows inside its tool call's card (ToolCard).
      return item.embedded ? null : <PermissionCard item={item} />;
    case "review":
      return item.embedded ? null : <ReviewCard item={item} />;
    case "notice":
      return <Notice item={item} />;
    case "compaction":
      return <Compaction item={item} />;
    case "question":
      return <QuestionCard item={item} />;
    case "steer":
      return <SteerNote item={item} />;
    case "learned":
      return <LearnedCard item={item} />;
  }
}

export const TranscriptItemView = memo(function TranscriptItemView({ item, streaming }: { item: TranscriptItem; streaming: boolean }) {
  return (
    <div class={`item item-${item.kind}`} data-item-id={item.id}>
      <ItemBody item={item} streaming={streaming} />
    </div>
  );
});
