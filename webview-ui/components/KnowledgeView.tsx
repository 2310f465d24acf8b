// "What Hermes knows": the agent's notes (MEMORY.md) and the user profile (USER.md) entry by
// entry, and the skills with their stats. Entries are edited in place, deleted, or a file is
// reverted to its text before the last change; skills are opened, reverted or archived. Every
// change goes to the agent (`_hermes/knowledge/*` through the host), which answers the fresh
// view and what it did. Replaces the transcript while open, like the history.
import { useState } from "preact/hooks";
import { post } from "../bridge/vscode-api";
import { skillStats, type KnowledgeMemoryFile, type KnowledgeSkill, type KnowledgeState } from "../../common/panel-state/knowledge";
import { Icon, Spinner } from "./icons";
import { InlineConfirm } from "./InlineConfirm";
import { memo } from "./memo";

const MEMORY_TITLES = { memory: "Memory", user: "User profile" } as const;
const MEMORY_HINTS = { memory: "Notes on environments, tools and lessons", user: "What Hermes knows about you" } as const;

export const KnowledgeView = memo(function KnowledgeView({ knowledge }: { knowledge: KnowledgeState }) {
  const { data, outcome } = knowledge;
  return (
    <div class="knowledge" data-testid="knowledge-view" aria-busy={knowledge.loading}>
      <div class="history-bar">
        <button type="button" class="icon-button" data-testid="knowledge-back" title="Back to the chat" aria-label="Back to the chat" onClick={() => post({ type: "knowledge", open: false })}>
          <Icon name="chevron" class="rot180" />
        </button>
        <span class="knowledge-lead muted">Read when a session starts: changes apply from the next one.</span>
        <button type="button" class="icon-button" data-testid="knowledge-refresh" title="Refresh" aria-label="Refresh" onClick={() => post({ type: "knowledge", open: true })}>
          {knowledge.loading ? <Spinner /> : <Icon name="restart" />}
        </button>
      </div>
      {outcome && (
        <div class={`notice ${outcome.ok ? "notice-info" : "notice-error"}`} role={outcome.ok ? "status" : "alert"} data-testid="knowledge-outcome" data-ok={outcome.ok}>
          <Icon name={outcome.ok ? "check" : "error"} /> <span>{outcome.message.replace(/`/g, "")}</span>
        </div>
      )}
      {knowledge.error && (
        <div class="notice notice-error" role="alert">
          <Icon name="error" /> <span>{knowledge.error}</span>
        </div>
      )}
      {!data && knowledge.loading && (
        <div class="loading-row muted">
          <Spinner /> Loading…
        </div>
      )}
      {data && (
        <>
          <MemorySection file={data.memory} />
          <MemorySection file={data.user} />
          <SkillsSection skills={data.skills} />
          {data.archived && data.archived.length > 0 && <ArchivedSection archived={data.archived} />}
        </>
      )}
    </div>
  );
});

function MemorySection({ file }: { file: KnowledgeMemoryFile }) {
  const [adding, setAdding] = useState(false);
  return (
    <section class="knowledge-section" data-testid="knowledge-memory" data-target={file.target} aria-label={MEMORY_TITLES[file.target]}>
      <div class="knowledge-section-head">
        <h2>{MEMORY_TITLES[file.target]}</h2>
        <span class="button-row">
          <button type="button" class="button small secondary" data-testid="knowledge-add" onClick={() => setAdding(true)}>
            <Icon name="plus" /> Add
          </button>
          <button
            type="button"
            class="button small secondary"
            data-testid="knowledge-revert"
            disabled={file.versions === 0}
            title={file.versions ? `Bring back ${file.file} as it was before the last change (${file.versions} earlier texts kept)` : "No earlier text kept yet"}
            onClick={() => post({ type: "knowledgeMemory", action: "revert", target: file.target })}
          >
            <Icon name="history" /> Revert last change
          </button>
          <button type="button" class="icon-button subtle" title={`Open ${file.file}`} aria-label={`Open ${file.file}`} onClick={() => post({ type: "openLocation", path: file.path })}>
            <Icon name="external" />
          </button>
        </span>
      </div>
      <p class="muted knowledge-hint" title={file.path}>
        {MEMORY_HINTS[file.target]} · {file.file} · {file.chars.toLocaleString("en")}/{file.limit.toLocaleString("en")} chars
      </p>
      {file.entries.length === 0 && !adding && <div class="empty muted">Nothing yet.</div>}
      <ol class="knowledge-list">
        {file.entries.map((entry, index) => (
          <MemoryEntry key={`${index}:${entry.text}`} file={file} index={index} text={entry.text} blocked={entry.blocked} />
        ))}
      </ol>
      {adding && (
        <EntryEditor
          initial=""
          label={`New entry in ${file.file}`}
          onSave={(text) => {
            setAdding(false);
            post({ type: "knowledgeMemory", action: "add", target: file.target, text });
          }}
          onCancel={() => setAdding(false)}
        />
      )}
    </section>
  );
}

function MemoryEntry({ file, index, text, blocked }: { file: KnowledgeMemoryFile; index: number; text: string; blocked?: string }) {
  const [editing, setEditing] = useState(false);
  if (editing) {
    return (
      <li class="knowledge-entry editing" data-testid="knowledge-entry" data-index={index}>
        <EntryEditor
          initial={text}
          label={`Entry ${index + 1} of ${file.file}`}
          onSave={(next) => {
            setEditing(false);
            if (next !== text) post({ type: "knowledgeMemory", action: "edit", target: file.target, index, text: next, expected: text });
          }}
          onCancel={() => setEditing(false)}
        />
      </li>
    );
  }
  return (
    <li class="knowledge-entry" data-testid="knowledge-entry" data-index={index}>
      <span class="knowledge-number muted" aria-hidden="true">
        {index + 1}.
      </span>
      <div class="knowledge-entry-text" data-testid="knowledge-entry-text">
        {text}
        {blocked && (
          <span class="knowledge-blocked" title={blocked}>
            <Icon name="warning" /> Not given to the model: {blocked}
          </span>
        )}
      </div>
      <span class="knowledge-actions">
        <button type="button" class="icon-button subtle" data-testid="knowledge-edit" title="Edit" aria-label={`Edit entry ${index + 1}`} onClick={() => setEditing(true)}>
          <Icon name="pencil" />
        </button>
        <button
          type="button"
          class="icon-button subtle"
          data-testid="knowledge-delete"
          title="Delete (Revert last change brings it back)"
          aria-label={`Delete entry ${index + 1}`}
          onClick={() => post({ type: "knowledgeMemory", action: "delete", target: file.target, index, expected: text })}
        >
          <Icon name="trash" />
        </button>
      </span>
    </li>
  );
}

function EntryEditor({ initial, label, onSave, onCancel }: { initial: string; label: string; onSave: (text: string) => void; onCancel: () => void }) {
  const [text, setText] = useState(initial);
  const save = () => text.trim() && onSave(text.trim());
  return (
    <div class="knowledge-editor">
      <textarea
        data-testid="knowledge-editor"
        aria-label={label}
        rows={Math.min(16, Math.max(2, text.split("\n").length))}
        value={text}
        autoFocus
        onInput={(e) => setText(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === "Escape") {
            e.preventDefault();
            e.stopPropagation();
            onCancel();
          } else if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
            e.preventDefault();
            save();
          }
        }}
      />
      <span class="button-row">
        <button type="button" class="button small primary" data-testid="knowledge-save" disabled={!text.trim()} onClick={save}>
          Save
        </button>
        <button type="button" class="button small secondary" onClick={onCancel}>
          Cancel
        </button>
      </span>
    </div>
  );
}

function SkillsSection({ skills }: { skills: KnowledgeSkill[] }) {
  return (
    <section class="knowledge-section" data-testid="knowledge-skills" aria-label="Skills">
      <div class="knowledge-section-head">
        <h2>Skills</h2>
        <span class="muted knowledge-meta">{skills.length} · uses, last use, how often they went well</span>
      </div>
      {skills.length === 0 && <div class="empty muted">No skills yet.</div>}
      <ul class="knowledge-list">
        {ordered(skills).map((skill) => (
          <SkillRow key={skill.name} skill={skill} />
        ))}
      </ul>
    </section>
  );
}

function ArchivedSection({ archived }: { archived: { name: string; archivedAt: string }[] }) {
  return (
    <section class="knowledge-section" data-testid="knowledge-archived" aria-label="Archived skills">
      <div class="knowledge-section-head">
        <h2>Archived skills</h2>
        <span class="muted knowledge-meta">kept, not offered; Restore puts one back</span>
      </div>
      <ul class="knowledge-list">
        {archived.map((entry) => (
          <li key={`${entry.name}:${entry.archivedAt}`} class="knowledge-entry" data-testid="knowledge-archived-skill" data-name={entry.name}>
            <div class="knowledge-entry-text">
              <span class="knowledge-skill-name">{entry.name}</span>
              <span class="muted"> · archived {entry.archivedAt.slice(0, 16).replace("T", " ")}</span>
            </div>
            <button type="button" class="button small secondary" data-testid="knowledge-skill-restore" onClick={() => post({ type: "knowledgeSkill", action: "restore", name: entry.name })}>
              <Icon name="history" /> Restore
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Skills you or Hermes wrote first (the ones to look after), then the bundled ones; by name within each. */
function ordered(skills: KnowledgeSkill[]): KnowledgeSkill[] {
  return [...skills].sort((a, b) => Number(b.editable) - Number(a.editable) || a.name.localeCompare(b.name));
}

function SkillRow({ skill }: { skill: KnowledgeSkill }) {
  const [confirming, setConfirming] = useState(false);
  const [editing, setEditing] = useState(false);
  const original = skill.text;
  if (editing && original !== undefined) {
    return (
      <li class="knowledge-entry editing" data-testid="knowledge-skill" data-name={skill.name}>
        <EntryEditor
          initial={original}
          label={`SKILL.md of ${skill.name}`}
          onSave={(text) => {
            setEditing(false);
            if (text !== original.trim()) post({ type: "knowledgeSkill", action: "edit", name: skill.name, text: `${text}\n` });
          }}
          onCancel={() => setEditing(false)}
        />
      </li>
    );
  }
  return (
    <li class={`knowledge-entry knowledge-skill${skill.unavailable ? " unavailable" : ""}`} data-testid="knowledge-skill" data-name={skill.name}>
      <div class="knowledge-entry-text">
        <span class="knowledge-skill-name">{skill.name}</span>
        <span class="muted">
          {" "}
          {skill.source}
          {skill.version ? ` · v${skill.version}` : ""}
        </span>
        <div class="knowledge-skill-description" title={skill.description}>
          {skill.description}
        </div>
        <div class="muted knowledge-skill-stats" data-testid="knowledge-skill-stats">
          {skillStats(skill)}
          {skill.unavailable ? ` · unavailable: ${skill.unavailable}` : ""}
        </div>
        {confirming && (
          <InlineConfirm
            testId="knowledge-archive-confirm"
            question={`Delete “${skill.name}”? It moves to the skills archive (kept, not destroyed).`}
            confirmLabel="Delete"
            danger
            onConfirm={() => {
              setConfirming(false);
              post({ type: "knowledgeSkill", action: "delete", name: skill.name });
            }}
            onCancel={() => setConfirming(false)}
          />
        )}
      </div>
      <span class="knowledge-actions">
        {skill.text !== undefined && (
          <button type="button" class="icon-button subtle" data-testid="knowledge-skill-edit" title="Edit SKILL.md here" aria-label={`Edit ${skill.name}`} onClick={() => setEditing(true)}>
            <Icon name="pencil" />
          </button>
        )}
        <button type="button" class="icon-button subtle" data-testid="knowledge-skill-open" title="Open SKILL.md in an editor" aria-label={`Open ${skill.name}`} onClick={() => post({ type: "openLocation", path: skill.file })}>
          <Icon name="external" />
        </button>
        {skill.editable && skill.versions > 0 && (
          <button type="button" class="icon-button subtle" data-testid="knowledge-skill-revert" title="Revert to the previous version" aria-label={`Revert ${skill.name}`} onClick={() => post({ type: "knowledgeSkill", action: "revert", name: skill.name })}>
            <Icon name="history" />
          </button>
        )}
        {skill.editable && (
          <button type="button" class="icon-button subtle" data-testid="knowledge-skill-delete" title="Delete (archived)" aria-label={`Delete ${skill.name}`} aria-expanded={confirming} onClick={() => setConfirming(true)}>
            <Icon name="trash" />
          </button>
        )}
      </span>
    </li>
  );
}
