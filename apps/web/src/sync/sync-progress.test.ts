import { localizedMessage, serverText } from "@hyperlens/shared";
import { afterEach, describe, expect, it } from "vitest";
import { setLanguage } from "../i18n/i18n.ts";
import {
  applyProgress,
  finishedNote,
  guardNote,
  isSettled,
  markRecent,
  markStarting,
  type ProgressEvent,
  type ProgressState,
  progressTone,
} from "./sync-progress.ts";

const base: ProgressEvent = {
  at: "2026-01-01T00:00:00Z",
  connectionId: "C1",
  syncRunId: "R1",
  type: "started",
  phase: null,
  listKey: null,
  listStatus: null,
  count: null,
  reason: null,
  reasonText: null,
  counts: null,
  outcome: null,
  message: null,
  messageTexts: null,
  errorClass: null,
  guardKnown: null,
  guardPresent: null,
};
const counts = { added: 3, changed: 0, removed: 0, restored: 0, unchanged: 1, seen: 4 };

function fold(events: Partial<ProgressEvent>[]): ProgressState {
  return events.reduce<ProgressState>((s, e) => applyProgress(s, { ...base, ...e }), {});
}

/** The closing note of connection C1's sync. */
function noteOf(state: ProgressState): string | null {
  const progress = state.C1;
  if (!progress) throw new Error("C1 has no progress");
  return finishedNote(progress);
}

describe("sync progress", () => {
  it("follows a sync from start through phases and lists to a clean finish", () => {
    const state = fold([
      { type: "started" },
      { type: "phase", phase: "reading" },
      { type: "list", listKey: "pve1/qemu", listStatus: "ok", count: 4 },
      { type: "finished", outcome: "SUCCESS", counts, message: "4 guests seen" },
    ]);
    const c1 = state.C1;
    expect(c1?.status).toBe("finished");
    expect(c1?.lists).toEqual([
      { key: "pve1/qemu", status: "ok", count: 4, reason: null, reasonText: null },
    ]);
    expect(c1 && progressTone(c1)).toBe("ok");
  });

  it("never shows a sync that skipped a list as ok, even if the outcome says success", () => {
    const state = fold([
      { type: "list", listKey: "pve4/qemu", listStatus: "skipped", reason: "node offline" },
      { type: "finished", outcome: "SUCCESS", counts },
    ]);
    expect(state.C1 && progressTone(state.C1)).toBe("warn");
  });

  it("shows a partial outcome and a fired guard as warnings", () => {
    const partial = fold([{ type: "finished", outcome: "PARTIAL", counts }]);
    expect(partial.C1 && progressTone(partial.C1)).toBe("warn");
    const guarded = fold([
      { type: "guard", guardKnown: 100, guardPresent: 3, message: "removal suppressed" },
      { type: "finished", outcome: "SUCCESS", counts },
    ]);
    expect(guarded.C1?.guard).toEqual({
      known: 100,
      present: 3,
      message: "removal suppressed",
      texts: null,
    });
    expect(guarded.C1 && progressTone(guarded.C1)).toBe("warn");
  });

  it("keeps a failure's class, message and its frame's code", () => {
    const texts = [{ code: "hyperCallRejected", params: {}, message: "certificate not trusted" }];
    const state = fold([
      {
        type: "failed",
        errorClass: "tls",
        message: "certificate not trusted",
        messageTexts: texts,
      },
    ]);
    expect(state.C1).toMatchObject({
      status: "failed",
      errorClass: "tls",
      message: "certificate not trusted",
      messageTexts: texts,
    });
    expect(state.C1 && progressTone(state.C1)).toBe("danger");
  });

  it("is settled only when every started sync has ended", () => {
    const started = markStarting({}, ["C1", "C2"]);
    expect(isSettled(started)).toBe(false);
    const one = applyProgress(started, { ...base, type: "finished", outcome: "SUCCESS" });
    expect(isSettled(one)).toBe(false);
    const both = applyProgress(one, { ...base, connectionId: "C2", type: "failed", message: "x" });
    expect(isSettled(both)).toBe(true);
    expect(isSettled({})).toBe(false);
  });

  it("settles a request the server answered with its last run under the cool-down, keeping when the next is possible", () => {
    const cooldown = { secondsSinceLastRun: 12, nextManualSyncAt: "2026-01-01T00:01:00.000Z" };
    const starting = markStarting({}, ["C1", "C2"]);
    const state = markRecent(starting, "C1", { outcome: "SUCCESS", cooldown });
    expect(state.C1).toMatchObject({ status: "recent", outcome: "SUCCESS", cooldown });
    expect(isSettled(state)).toBe(false);
    expect(isSettled(markRecent(state, "C2", { outcome: "FAILED", cooldown }))).toBe(true);
  });

  it("shows the counts once: the server's closing message, which repeats them, only when no counts came", () => {
    const message = "4 guests seen: 3 added, 0 changed, 0 restored, 0 removed, 1 unchanged.";
    const counted = fold([
      { type: "started" },
      { type: "finished", outcome: "SUCCESS", counts, message },
    ]);
    expect(counted.C1?.counts).toEqual(counts);
    expect(noteOf(counted)).toBeNull();
    const bare = fold([{ type: "started" }, { type: "finished", outcome: "SUCCESS", message }]);
    expect(noteOf(bare)).toBe(message);
  });

  it("ignores event types it does not know", () => {
    expect(fold([{ type: "heartbeat" }])).toEqual({});
  });

  describe("in the viewer's language (docs/behaviour.md §9.52)", () => {
    afterEach(() => setLanguage("en"));
    const guard = serverText("syncGuardFired", { present: 3, known: 100, subject: "guests" });
    const poll = serverText("lightPollSummary", {
      listed: 4,
      read: 1,
      added: 0,
      changed: 1,
      restored: 0,
      removed: 0,
    });

    it("says the guard's sentence from its code", async () => {
      await setLanguage("de");
      const state = fold([
        {
          type: "guard",
          guardKnown: 100,
          guardPresent: 3,
          message: "Removal suppressed: …",
          messageTexts: [localizedMessage(guard)],
        },
      ]);
      const c1 = state.C1;
      expect(c1 && guardNote(c1)).toBe(
        "Entfernen unterdrückt: nur 3 von 100 bekannten Gästen in den zurückgekommenen Listen waren vorhanden (weniger als die Hälfte).",
      );
    });

    it("says a finished run's message from its codes, English where there are none", async () => {
      await setLanguage("ja");
      const texts = [localizedMessage(poll)];
      expect(
        noteOf(fold([{ type: "finished", outcome: "SUCCESS", messageTexts: texts, message: "x" }])),
      ).toBe(
        "軽量ポーリング: 4 台のゲストを一覧、1 台を読み取り: 追加 0、変更 1、復元 0、削除 0。",
      );
      expect(noteOf(fold([{ type: "finished", outcome: "SUCCESS", message: "Old words." }]))).toBe(
        "Old words.",
      );
    });
  });
});
