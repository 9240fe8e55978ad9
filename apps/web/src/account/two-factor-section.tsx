import { type FormEvent, useState } from "react";
import { useMutation, useQuery } from "urql";
import { graphql } from "../graphql/graphql.ts";
import { t } from "../i18n/i18n.ts";
import { codeProblem } from "./code-outcome.ts";
import { RecoveryCodes } from "./recovery-codes.tsx";

const STATUS = graphql(`
  query TwoFactorStatus { viewer { isTwoFactorEnabled mustEnrolTwoFactor } }
`);

const BEGIN = graphql(`
  mutation BeginTwoFactorEnrolment($currentPassword: String!) {
    result: beginTwoFactorEnrolment(currentPassword: $currentPassword) {
      __typename
      ... on Error { message }
      ... on RateLimitedError { retryAt }
      ... on ValidationError { problems { message } }
      ... on MutationBeginTwoFactorEnrolmentSuccess { data { uri secret qrCodeSvg } }
    }
  }
`);

const CONFIRM = graphql(`
  mutation ConfirmTwoFactor($code: String!) {
    result: confirmTwoFactor(code: $code) {
      __typename
      ... on Error { message }
      ... on RateLimitedError { retryAt }
      ... on ValidationError { problems { message } }
      ... on MutationConfirmTwoFactorSuccess { data }
    }
  }
`);

const REGENERATE = graphql(`
  mutation RegenerateRecoveryCodes($code: String!) {
    result: regenerateRecoveryCodes(code: $code) {
      __typename
      ... on Error { message }
      ... on RateLimitedError { retryAt }
      ... on ValidationError { problems { message } }
      ... on MutationRegenerateRecoveryCodesSuccess { data }
    }
  }
`);

const DISABLE = graphql(`
  mutation DisableTwoFactor($currentPassword: String!, $code: String, $recoveryCode: String) {
    result: disableTwoFactor(
      currentPassword: $currentPassword
      code: $code
      recoveryCode: $recoveryCode
    ) {
      __typename
      ... on Error { message }
      ... on RateLimitedError { retryAt }
      ... on ValidationError { problems { message } }
    }
  }
`);

type Enrolment = { uri: string; secret: string; qrCodeSvg: string };

function CodeField(props: {
  id: string;
  label: string;
  value: string;
  onChange: (v: string) => void;
}) {
  return (
    <div className="field">
      <label htmlFor={props.id}>{props.label}</label>
      <input
        id={props.id}
        required
        inputMode="numeric"
        autoComplete="one-time-code"
        pattern="[0-9 ]{6,7}"
        maxLength={7}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
      />
    </div>
  );
}

function Problem(props: { text: string | undefined }) {
  return props.text ? (
    <p role="alert" className="problem">
      {props.text}
    </p>
  ) : null;
}

/** Turning two-factor on: the QR code and key, then a first code, then the recovery codes. */
function Enrol(props: { onEnabled: () => void }) {
  const [, begin] = useMutation(BEGIN);
  const [, confirm] = useMutation(CONFIRM);
  const [enrolment, setEnrolment] = useState<Enrolment>();
  const [password, setPassword] = useState("");
  const [code, setCode] = useState("");
  const [codes, setCodes] = useState<readonly string[]>();
  const [problem, setProblem] = useState<string>();

  if (codes) return <RecoveryCodes codes={codes} onSaved={props.onEnabled} />;
  if (!enrolment) {
    return (
      <form
        aria-label={t("twoFactor.start")}
        onSubmit={async (event) => {
          event.preventDefault();
          const result = await begin({ currentPassword: password });
          const outcome = result.data?.result;
          setPassword("");
          if (outcome && "data" in outcome) {
            setProblem(undefined);
            setEnrolment(outcome.data);
          } else setProblem(codeProblem(outcome, result.error));
        }}
      >
        <div className="field">
          <label htmlFor="two-factor-start-password">{t("twoFactor.currentPassword")}</label>
          <input
            id="two-factor-start-password"
            type="password"
            required
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </div>
        <Problem text={problem} />
        <button type="submit" className="primary">
          {t("twoFactor.start")}
        </button>
      </form>
    );
  }
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = await confirm({ code });
    const outcome = result.data?.result;
    if (outcome && "data" in outcome) setCodes(outcome.data);
    else setProblem(codeProblem(outcome, result.error));
  };
  return (
    <form onSubmit={submit} aria-label={t("twoFactor.start")}>
      <p>{t("twoFactor.scan")}</p>
      {/* An <img> of the server's SVG: no markup of it enters the page. */}
      <img
        className="qr-code"
        width={200}
        height={200}
        alt={t("twoFactor.qrAlt")}
        src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(enrolment.qrCodeSvg)}`}
      />
      <p>
        {t("twoFactor.manualKey")}: <code className="manual-key">{enrolment.secret}</code>
      </p>
      <CodeField
        id="two-factor-confirm"
        label={t("twoFactor.code")}
        value={code}
        onChange={setCode}
      />
      <Problem text={problem} />
      <button type="submit" className="primary">
        {t("twoFactor.confirm")}
      </button>
    </form>
  );
}

/** With two-factor on: new recovery codes, or turning it off. */
function Manage(props: { onChanged: () => void }) {
  const [, regenerate] = useMutation(REGENERATE);
  const [, disable] = useMutation(DISABLE);
  const [code, setCode] = useState("");
  const [codes, setCodes] = useState<readonly string[]>();
  const [password, setPassword] = useState("");
  const [offCode, setOffCode] = useState("");
  const [problem, setProblem] = useState<string>();
  const [offProblem, setOffProblem] = useState<string>();

  if (codes) return <RecoveryCodes codes={codes} onSaved={() => setCodes(undefined)} />;
  return (
    <>
      <form
        aria-label={t("twoFactor.regenerate")}
        onSubmit={async (event) => {
          event.preventDefault();
          const result = await regenerate({ code });
          const outcome = result.data?.result;
          setCode("");
          if (outcome && "data" in outcome) setCodes(outcome.data);
          else setProblem(codeProblem(outcome, result.error));
        }}
      >
        <h3>{t("twoFactor.regenerate")}</h3>
        <p className="muted">{t("twoFactor.regenerateHint")}</p>
        <CodeField
          id="two-factor-regenerate"
          label={t("twoFactor.code")}
          value={code}
          onChange={setCode}
        />
        <Problem text={problem} />
        <button type="submit">{t("twoFactor.regenerate")}</button>
      </form>
      <form
        aria-label={t("twoFactor.disable")}
        onSubmit={async (event) => {
          event.preventDefault();
          // A code from the app is six digits; anything longer is a recovery code.
          const isAppCode = /^\d{6}$/.test(offCode.replace(/\s/g, ""));
          const result = await disable({
            currentPassword: password,
            code: isAppCode ? offCode : null,
            recoveryCode: isAppCode ? null : offCode,
          });
          const outcome = result.data?.result;
          if (outcome?.__typename === "MutationDisableTwoFactorSuccess") props.onChanged();
          else setOffProblem(codeProblem(outcome, result.error));
        }}
      >
        <h3>{t("twoFactor.disable")}</h3>
        <div className="field">
          <label htmlFor="two-factor-password">{t("twoFactor.currentPassword")}</label>
          <input
            id="two-factor-password"
            type="password"
            required
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="two-factor-off-code">{t("twoFactor.codeOrRecovery")}</label>
          <input
            id="two-factor-off-code"
            required
            autoComplete="one-time-code"
            value={offCode}
            onChange={(e) => setOffCode(e.target.value)}
          />
        </div>
        <Problem text={offProblem} />
        <button type="submit" className="danger">
          {t("twoFactor.disable")}
        </button>
      </form>
    </>
  );
}

/**
 * The signed-in user's two-factor: set it up, new recovery codes, turn it off. While the
 * administrator requires it and it is off, this is all the app shows.
 */
export function TwoFactorSection(props: { onChanged?: () => void }) {
  const [{ data }, reload] = useQuery({ query: STATUS, requestPolicy: "network-only" });
  const viewer = data?.viewer;
  if (!viewer) return null;
  const changed = () => {
    reload({ requestPolicy: "network-only" });
    props.onChanged?.();
  };
  return (
    <section className="card" aria-labelledby="two-factor-title">
      <h2 id="two-factor-title">{t("twoFactor.title")}</h2>
      {viewer.mustEnrolTwoFactor && (
        <p role="alert" className="problem">
          {t("twoFactor.mustEnrol")}
        </p>
      )}
      <p className="muted">
        {viewer.isTwoFactorEnabled ? t("twoFactor.isOn") : t("twoFactor.intro")}
      </p>
      {viewer.isTwoFactorEnabled ? <Manage onChanged={changed} /> : <Enrol onEnabled={changed} />}
    </section>
  );
}
