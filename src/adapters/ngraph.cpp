// SPDX-License-Identifier: Apache-2.0
// Placeholder while the adapter is written; replaced in the adapters commit.
