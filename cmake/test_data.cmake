# Included by tests/CMakeLists.txt (the native build) and tests/fuzz/CMakeLists.txt (the
# sanitized build): both run tests on the unpacked corpus.
# Test data: tests/data holds the real corpus gzip-compressed (see tests/data/README.md).
# Unpack it into ${CMAKE_BINARY_DIR}/testdata (same layout, truncated/ included, .gz dropped)
# before the tests build; plain files (baselines, expected outputs) are copied as they are.
find_program(NETTRACE_GZIP gzip REQUIRED)
set(NETTRACE_TESTDATA_SRC ${PROJECT_SOURCE_DIR}/tests/data)
set(NETTRACE_TESTDATA_OUT ${CMAKE_BINARY_DIR}/testdata)
file(GLOB_RECURSE NETTRACE_TESTDATA_FILES CONFIGURE_DEPENDS
  RELATIVE ${NETTRACE_TESTDATA_SRC} ${NETTRACE_TESTDATA_SRC}/*.gz ${NETTRACE_TESTDATA_SRC}/*.txt)
# oracle/: TraceEvent's baselines, read where they are (gzip'd) by tests/node/oracle.test.mjs.
list(FILTER NETTRACE_TESTDATA_FILES EXCLUDE REGEX "^(LICENSES|oracle)/")
set(NETTRACE_TESTDATA_OUTPUTS)
foreach(rel IN LISTS NETTRACE_TESTDATA_FILES)
  set(in ${NETTRACE_TESTDATA_SRC}/${rel})
  if(rel MATCHES "\\.gz$")
    string(REGEX REPLACE "\\.gz$" "" out_rel "${rel}")
    set(out ${NETTRACE_TESTDATA_OUT}/${out_rel})
    get_filename_component(out_dir ${out} DIRECTORY)
    add_custom_command(OUTPUT ${out}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${out_dir}
      COMMAND sh -c "\"$0\" -dc \"$1\" > \"$2.tmp\" && mv \"$2.tmp\" \"$2\"" ${NETTRACE_GZIP} ${in} ${out}
      DEPENDS ${in}
      COMMENT "Unpacking test data ${out_rel}"
      VERBATIM)
  else()
    set(out ${NETTRACE_TESTDATA_OUT}/${rel})
    add_custom_command(OUTPUT ${out}
      COMMAND ${CMAKE_COMMAND} -E copy ${in} ${out}
      DEPENDS ${in}
      VERBATIM)
  endif()
  list(APPEND NETTRACE_TESTDATA_OUTPUTS ${out})
endforeach()
add_custom_target(nettrace_testdata ALL DEPENDS ${NETTRACE_TESTDATA_OUTPUTS})
