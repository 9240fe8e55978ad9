import { useState } from "react";
import { t } from "../i18n/i18n.ts";

/** A destructive action that asks "are you sure?" inline before it runs. */
export function ConfirmButton(props: {
  label: string;
  question: string;
  /** The confirming button's text, naming the action ("Yes, revoke"), never a generic default. */
  confirmLabel: string;
  onConfirm: () => void;
}) {
  const [isAsking, setAsking] = useState(false);
  if (!isAsking) {
    return (
      <button type="button" className="danger" onClick={() => setAsking(true)}>
        {props.label}
      </button>
    );
  }
  return (
    <span className="confirm" role="alertdialog" aria-label={props.question}>
      <span>{props.question}</span>{" "}
      <button
        type="button"
        className="danger"
        onClick={() => {
          setAsking(false);
          props.onConfirm();
        }}
      >
        {props.confirmLabel}
      </button>{" "}
      <button type="button" onClick={() => setAsking(false)}>
        {t("common.cancel")}
      </button>
    </span>
  );
}
