# Writes collnoise.1 with help2man (cmake -P, run after each link of the command):
#   cmake -DCOLLNOISE=<binary> -DHELP2MAN=<help2man> -DVERSION=<x.y.z> -DSOURCE_DIR=<source>
#         -DOUTPUT=<collnoise.1> -P man_page.cmake
# The page is help2man's from `collnoise --help`, a COMMANDS section with each command's --help
# (the commands are read from the main help, so a new one appears by itself), and the sections
# written by hand in cmake/collnoise.h2m (run files, files, exit status, see also).
foreach(var COLLNOISE HELP2MAN VERSION SOURCE_DIR OUTPUT)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "man_page.cmake: -D${var}=... is missing")
  endif()
endforeach()

function(help_of out)
  execute_process(COMMAND ${COLLNOISE} ${ARGN} --help OUTPUT_VARIABLE text ERROR_VARIABLE error
                  RESULT_VARIABLE code)
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "man page: `collnoise ${ARGN} --help` failed (${code}): ${error}")
  endif()
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

# The commands: the lines of the main help's "SUBCOMMANDS:" list (CLI11's layout).
help_of(main_help)
string(REGEX MATCH "[Ss][Uu][Bb][Cc][Oo][Mm][Mm][Aa][Nn][Dd][Ss]:\n(.*)" list "${main_help}")
string(REPLACE ";" "," list "${CMAKE_MATCH_1}")
string(REPLACE "\n" ";" lines "${list}")
set(commands "")
foreach(line IN LISTS lines)
  if(line MATCHES "^  ([a-z][a-z-]*)( |$)")  # the name, two spaces in; wrapped text is deeper
    list(APPEND commands ${CMAKE_MATCH_1})
  elseif(line STREQUAL "")
    break()
  endif()
endforeach()
set(include "[COMMANDS]\n")
foreach(command IN LISTS commands)
  help_of(text ${command})
  string(REPLACE "${COLLNOISE}" "collnoise" text "${text}")
  # roff: a backslash is written \e; a line may not begin with a dot or a quote.
  string(REPLACE "\\" "\\e" text "${text}")
  string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" text "${text}")
  string(APPEND include ".SS \"collnoise ${command}\"\n.nf\n${text}.fi\n")
endforeach()
if(include STREQUAL "[COMMANDS]\n")
  message(FATAL_ERROR "man page: no commands found in `collnoise --help`:\n${main_help}")
endif()
get_filename_component(dir ${OUTPUT} DIRECTORY)
file(WRITE ${dir}/collnoise-commands.h2m "${include}")

execute_process(
  COMMAND ${HELP2MAN} --no-info --no-discard-stderr --version-string=${VERSION}
          "--name=how noise slows collective operations at scale (Monte Carlo)"
          --section=1 --include=${dir}/collnoise-commands.h2m
          --include=${SOURCE_DIR}/cmake/collnoise.h2m --output=${OUTPUT}.tmp ${COLLNOISE}
  RESULT_VARIABLE code ERROR_VARIABLE error)
if(NOT code EQUAL 0)
  message(FATAL_ERROR "man page: help2man failed (${code}): ${error}")
endif()
file(RENAME ${OUTPUT}.tmp ${OUTPUT})
