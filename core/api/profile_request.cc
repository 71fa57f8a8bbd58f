#include "api/profile_request.h"

namespace nettrace::api {

ProfileRequest ProfileRequestOf(const Request& request) {
  ProfileRequest p;
  p.query = request.stack;
  if (Given(request, "event")) p.event = request.stack.event;
  if (Given(request, "weight") && request.stack.weight != WeightKind::kAuto) p.weight = request.stack.weight;
  return p;
}

}  // namespace nettrace::api
