import type { ReactNode } from "react";

/** A labelled form control with its problems beside it (announced, linked by aria-describedby). */
export function FormField(props: {
  id: string;
  label: string;
  hint?: string;
  problems: readonly string[];
  children: (aria: {
    id: string;
    "aria-invalid": boolean;
    "aria-describedby"?: string;
  }) => ReactNode;
}) {
  const describedBy = [
    props.hint ? `${props.id}-hint` : "",
    props.problems.length ? `${props.id}-problem` : "",
  ]
    .filter(Boolean)
    .join(" ");
  return (
    <div className="field">
      <label htmlFor={props.id}>{props.label}</label>
      {props.children({
        id: props.id,
        "aria-invalid": props.problems.length > 0,
        "aria-describedby": describedBy || undefined,
      })}
      {props.hint && (
        <small id={`${props.id}-hint`} className="muted">
          {props.hint}
        </small>
      )}
      {props.problems.length > 0 && (
        <div id={`${props.id}-problem`} className="problem" role="alert">
          {props.problems.join(" ")}
        </div>
      )}
    </div>
  );
}
