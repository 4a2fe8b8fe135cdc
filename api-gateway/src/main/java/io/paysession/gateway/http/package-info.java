/**
 * The partner API over HTTP ({@code /api/v1}, {@code /api/v2}, {@code /cds/v1}): the filters every request passes
 * (store unavailable, normal path, body limit, partner signature), the controllers, the reading and checking of
 * request bodies into commands, and the contract's error answers (decisions.md sections 1 and 2).
 */
package io.paysession.gateway.http;
