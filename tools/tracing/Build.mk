# SPDX-License-Identifier: LGPL-2.1-or-later
#
# The ustrace command: one file per subcommand.
$(call add-tool,$(d)/ustrace,$(wildcard $(d)/*.c))
