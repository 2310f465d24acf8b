// The steps around every turn, in the order they run (runtime/turn-step.ts): a new step is one
// object in its feature's folder plus its line here. Front ends may add their own after these
// (PromptDeps.frontEndSteps).
import { curatorStep } from "../learning/curator-step";
import { learningReviewStep } from "../learning/review-step";
import { skillOutcomesStep } from "../learning/skill-outcomes";
import type { TurnStep } from "../runtime/turn-step";
import { firstPromptHintStep } from "./steps/first-prompt-hint";
import { titleStep } from "./steps/title-step";

export const TURN_STEPS: readonly TurnStep[] = [
  // Before the turn: a correction marks the previous skills; the first prompt looks for related sessions.
  skillOutcomesStep,
  firstPromptHintStep,
  // Ended: skills scored, the index opened if it was closed, the session named.
  titleStep,
  // Answered: the learning review, then the curator (which waits for the review).
  learningReviewStep,
  curatorStep,
];
