# uPlot (1.6.32) makes an Intl.NumberFormat and an Intl.DateTimeFormat when it loads, for its
# default tick labels and legend values and for time zones. A page's first use of Intl loads
# ICU's locale data: 90 ms of a cold first view's main thread on the test machine. The page
# formats every axis and value itself and has no time axis, so these lines make both on first
# use instead. The Makefile fails the build if they no longer match.
s/^const numFormatter = new Intl\.NumberFormat(domEnv ? nav\.language : 'en-US');$/let numFormatter;/
s/^const fmtNum = val => numFormatter\.format(val);$/const fmtNum = val => (numFormatter ||= new Intl.NumberFormat(domEnv ? nav.language : 'en-US')).format(val);/
s/^const localTz = new Intl\.DateTimeFormat()\.resolvedOptions()\.timeZone;$/let localTz;/
s/^\(\t*\)else if (tz == localTz)$/\1else if (tz == (localTz ||= new Intl.DateTimeFormat().resolvedOptions().timeZone))/
