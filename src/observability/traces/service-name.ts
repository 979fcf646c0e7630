/** The resource's and instrumentation scope's name, unless the settings' resource attributes name the service otherwise. */
export const SERVICE_NAME = 'service-graphql-engine';
