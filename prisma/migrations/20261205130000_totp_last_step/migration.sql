-- Two-factor for local accounts (issue 23): the last TOTP time step a user's code was accepted
-- for, so a code seen once (shoulder-surfed, phished, logged) cannot be played again in its step.
ALTER TABLE "users" ADD COLUMN "totpLastStep" INTEGER;
