# Built-in VMAF models: model/<version>.json embedded into the library at build time.
# The order here is the order ev_model_versions() lists them in.
set(EV_BUILTIN_MODELS
  vmaf_v0.6.1
  vmaf_v0.6.1neg
  vmaf_4k_v0.6.1
  vmaf_4k_v0.6.1neg
  vmaf_b_v0.6.3
  vmaf_v1.0.16_3d0h
  vmaf_v1.0.16_3d0h_2160
  vmaf_v1.0.16_5d0h
  vmaf_v1.0.16_1d5h_2160
  vmaf_v1.0.16_hfr_3d0h
  vmaf_v1.0.16_hfr_3d0h_2160
  vmaf_v1.0.16_hfr_5d0h
  vmaf_v1.0.16_hfr_1d5h_2160
  vmaf_float_v0.6.1
  vmaf_float_v0.6.1neg
  vmaf_float_4k_v0.6.1
  vmaf_float_b_v0.6.3
)

# ev_embed_models(target): generate ev_builtin_models.c (no xxd needed) and add it to target.
function(ev_embed_models target)
  set(out ${CMAKE_CURRENT_BINARY_DIR}/generated/ev_builtin_models.c)
  set(inputs)
  foreach(version ${EV_BUILTIN_MODELS})
    list(APPEND inputs ${PROJECT_SOURCE_DIR}/model/${version}.json)
  endforeach()
  string(REPLACE ";" "\\;" versions "${EV_BUILTIN_MODELS}")
  add_custom_command(
    OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -DEV_MODEL_DIR=${PROJECT_SOURCE_DIR}/model
            -DEV_MODEL_VERSIONS=${versions} -DEV_OUT=${out}
            -P ${PROJECT_SOURCE_DIR}/cmake/embed_models.cmake
    DEPENDS ${inputs} ${PROJECT_SOURCE_DIR}/cmake/embed_models.cmake
    COMMENT "Embedding the built-in VMAF models"
    VERBATIM)
  target_sources(${target} PRIVATE ${out})
endfunction()
