/** The alert vocabulary lives with the API's schemas (lib/schemas/alerts.ts); the services read it from here. */
export {
  ALERT_TYPES,
  DEFAULT_PREFERENCES,
  EMAIL_MODES,
  type AlertType,
  type EmailMode,
  type NotificationPreferences,
} from "../schemas/alerts";
